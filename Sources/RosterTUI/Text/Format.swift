import RosterApp

/// Numbers as every view shows them, through the models' one formatter (CountFormat), so the
/// list's position, the header's count and the models' labels cannot disagree; the views reach
/// it here and never import the models.
enum Format {
    /// 100000 → "100,000".
    static func count(_ value: Int) -> String { CountFormat.grouped(value) }

    /// The columns `count(value)` takes, from its digits: a frame compares the width of two
    /// positions without writing either out (two of its four numbers each `j`).
    static func countColumns(_ value: Int) -> Int {
        var digits = 1
        var rest = value.magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        return digits + (digits - 1) / 3 + (value < 0 ? 1 : 0)
    }
}
