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

    /// A list's position, " 3 / 100,000+ ": " … " before the total is known, `empty` when there
    /// is nothing (the user list and the groups view each have their own way to say so).
    static func position(selected: Int?, total: Int?, isLowerBound: Bool, empty: String) -> String {
        guard let total else { return " … " }
        guard total > 0 else { return empty }
        return " \(count((selected ?? 0) + 1)) / \(count(total))\(isLowerBound ? "+" : "") "
    }

    /// The columns `position(...)` takes, without writing it (`empty` is ASCII).
    static func positionColumns(selected: Int?, total: Int?, isLowerBound: Bool, empty: String) -> Int {
        guard let total else { return 3 }
        guard total > 0 else { return empty.utf8.count }
        return 5 + countColumns((selected ?? 0) + 1) + countColumns(total) + (isLowerBound ? 1 : 0)
    }
}
