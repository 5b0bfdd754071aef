/// What a person submits to create or rename a group.
public struct GroupDraft: Codable, Sendable, Equatable, Hashable {
    public var name: String

    public init(name: String) {
        self.name = name
    }

    /// The draft as it would be stored: the name trimmed of surrounding white space.
    public var normalized: GroupDraft {
        GroupDraft(name: name.trimmingWhitespace())
    }

    /// The draft's problems (empty means valid). A group name follows a user name's rules:
    /// 1 to 100 characters after trimming, any script, no control characters.
    public var problems: [FieldError] {
        UserValidation.nameProblem(name).map { [FieldError(field: "name", message: $0)] } ?? []
    }
}
