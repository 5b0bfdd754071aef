import RosterApp
import RosterKit

extension DetailContent {
    /// The history in place of the record's extra fields: a heading, then per change, newest
    /// first, a line with its date, time and token, and one indented line per field changed:
    /// "11-25  09:30 night-editor" / "  name “Ana” → “Ana B.”".
    mutating func showHistory(_ state: LoadState<[UserChange]>) {
        var lines = [Field(label: "History", value: Self.historyHeading(state), isDim: true)]
        for change in state.value ?? [] {
            let stamp = Self.timestamp(change.at) // "2025-11-21 09:30 UTC"
            // A membership change says itself: "member_of — → “Night shift”".
            let what = ["update", "members"].contains(change.action) ? "" : " (\(change.action)d)"
            lines.append(Field(label: String(stamp.dropFirst(5).prefix(5)), value: "\(stamp.dropFirst(11).prefix(5)) \(change.token)\(what)"))
            for field in change.changes {
                lines.append(Field(label: "", value: "  " + Self.describe(field, action: change.action)))
            }
        }
        fields = lines
        if let error = state.error { problem = error.errorDescription }
    }

    private static func historyHeading(_ state: LoadState<[UserChange]>) -> String {
        if state.isLoading { return "loading… (h: back)" }
        guard let changes = state.value else { return "(h: back)" }
        return changes.isEmpty ? "no changes recorded (h: back)" : "\(changes.count) changes, newest first (h: back)"
    }

    /// "name “Ana” → “Ana B.”"; a create shows the value set, a delete the value it had.
    static func describe(_ field: ChangedField, action: String) -> String {
        switch action {
        case "create": "\(field.field) \(shown(field.after))"
        case "delete": "\(field.field) was \(shown(field.before))"
        default: "\(field.field) \(shown(field.before)) → \(shown(field.after))"
        }
    }

    private static func shown(_ value: String?) -> String {
        guard let value else { return "—" }
        return value.hasPrefix("\"") ? value : "“\(value)”"
    }
}
