/// A profile attribute of a user beyond Roster's core fields (name, email, role, status): what
/// SCIM's core `title` and enterprise extension, and LDAP's person attributes, hold and HR
/// files carry. Which ones a directory has, its traits say (`DirectoryTraits.attributes`);
/// the Roster API has none.
public enum UserAttribute: String, CaseIterable, Sendable, Codable, Hashable, Comparable {
    case title
    case department
    case employeeNumber

    /// As the preview, the journal and the import's mapping name it.
    public var label: String {
        switch self {
        case .title: "title"
        case .department: "department"
        case .employeeNumber: "employee number"
        }
    }

    /// As the detail pane's label column shows it (8 columns at most).
    public var shortLabel: String {
        switch self {
        case .title: "Title"
        case .department: "Dept."
        case .employeeNumber: "Emp. no."
        }
    }

    public static func < (a: UserAttribute, b: UserAttribute) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

extension Dictionary where Key == UserAttribute, Value == String {
    /// The attributes as JSON takes them: keyed by name.
    var byName: [String: String] {
        Dictionary<String, String>(uniqueKeysWithValues: map { ($0.key.rawValue, $0.value) })
    }

    /// Attributes read by name; a name Roster does not know is dropped (a newer Roster's journal).
    init(byName names: [String: String]) {
        self.init(uniqueKeysWithValues: names.compactMap { name, value in UserAttribute(rawValue: name).map { ($0, value) } })
    }
}
