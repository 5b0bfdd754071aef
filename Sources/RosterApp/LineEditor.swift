/// The one line of typing at the bottom of the screen, whatever it is for: the search (`/`),
/// the filter line (`f`), the group of a bulk action, the file of an export or an import. One
/// is open at a time (`AppModel.line`); Enter hands the text to what opened it, Esc drops it,
/// and a problem with the text shows beside the line, which stays open with what was typed.
/// The group-name dialog (`PromptModel`) edits its line with the same type.
public struct LineEditor: Sendable, Equatable {
    public enum Purpose: Sendable, Equatable {
        case search
        case filter
        /// The group to add the marked users to, or to take them out of.
        case bulkGroup(adding: Bool)
        case exportFile
        case importFile
        /// A group's name in the group-name dialog.
        case groupName
        /// A new password for the marked (or selected) users, typed with echo off.
        case newPassword
        /// The same password again, to be sure of it; the first is kept hidden here.
        case newPasswordAgain(PasswordReset)

        /// Whether the text is never drawn (echo off).
        public var isMasked: Bool {
            switch self {
            case .newPassword, .newPasswordAgain: true
            default: false
            }
        }
    }

    public let purpose: Purpose
    /// What the line says before the text ("Export to:"); the search and filter lines draw
    /// their own.
    public let label: String
    public private(set) var field: TextFieldState
    /// Why Enter could not use the text, until the next edit.
    public var problem: String?

    public init(_ purpose: Purpose, label: String = "", text: String = "") {
        self.purpose = purpose
        self.label = label
        self.field = TextFieldState(text)
    }

    public var text: String { field.text }

    /// The text without the spaces around it.
    var trimmedText: String {
        String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }

    /// Applies a keystroke; returns whether the text changed (a change clears the problem).
    @discardableResult
    public mutating func apply(_ edit: TextEdit) -> Bool {
        guard field.apply(edit) else { return false }
        problem = nil
        return true
    }
}
