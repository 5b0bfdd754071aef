import RosterApp

/// Numbers as every view shows them, through the models' one formatter (CountFormat), so the
/// list's position, the header's count and the models' labels cannot disagree; the views reach
/// it here and never import the models.
enum Format {
    /// 100000 → "100,000".
    static func count(_ value: Int) -> String { CountFormat.grouped(value) }
}
