import Observation

/// A one-line question on the status line ("Add 3 users to the group: "), edited like the
/// search line; Enter hands the text over, Esc drops it. A problem (no group of that name)
/// shows beside the line, which stays open.
@MainActor
@Observable
public final class LinePrompt {
    public let label: String
    public internal(set) var field = TextFieldState()
    public internal(set) var problem: String?
    @ObservationIgnored let onCommit: @MainActor (String) -> Void

    init(label: String, onCommit: @escaping @MainActor (String) -> Void) {
        self.label = label
        self.onCommit = onCommit
    }

    func edit(_ edit: TextEdit) {
        var field = self.field
        if field.apply(edit) { problem = nil }
        self.field = field
    }
}
