/// The one-line prompt for a file name (`x` export, `i` import), shown where the search line
/// is: what is typed, and why the last Enter could not use it.
public struct PathPrompt: Sendable, Equatable {
    public enum Purpose: Sendable, Equatable {
        case export
        case importFile
    }

    public var purpose: Purpose
    public var field: TextFieldState
    public var problem: String?

    public var label: String {
        switch purpose {
        case .export: " Export to: "
        case .importFile: " Import from: "
        }
    }
}
