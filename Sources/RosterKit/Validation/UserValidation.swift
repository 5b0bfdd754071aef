/// The rules a user draft must follow. The server enforces them, the form shows them as the
/// person types, and both call this one implementation so they cannot disagree.
public enum UserValidation {
    public static let nameLengthRange = 1...100
    public static let maximumEmailLength = 254

    /// The draft as it would be stored: name and email trimmed of surrounding white space.
    public static func normalized(_ draft: UserDraft) -> UserDraft {
        var draft = draft
        draft.name = draft.name.trimmingWhitespace()
        draft.email = draft.email.trimmingWhitespace()
        draft.userName = draft.userName?.trimmingWhitespace()
        return draft
    }

    /// Every problem of the draft, at most one per field, in field order. Empty means valid.
    public static func problems(in draft: UserDraft) -> [FieldError] {
        var problems: [FieldError] = []
        if let message = nameProblem(draft.name) { problems.append(FieldError(field: "name", message: message)) }
        if let message = emailProblem(draft.email) { problems.append(FieldError(field: "email", message: message)) }
        if let userName = draft.userName, let message = userNameProblem(userName) {
            problems.append(FieldError(field: "userName", message: message))
        }
        if let role = draft.role, !role.isKnown {
            problems.append(FieldError(field: "role", message: "Role must be one of \(Role.known.map(\.rawValue).joined(separator: ", "))."))
        }
        if let status = draft.status, !status.isKnown {
            problems.append(FieldError(field: "status", message: "Status must be one of \(Status.known.map(\.rawValue).joined(separator: ", "))."))
        }
        return problems
    }

    public static func nameProblem(_ rawName: String) -> String? {
        let name = rawName.trimmingWhitespace()
        if name.isEmpty { return "Name is required." }
        if name.unicodeScalars.contains(where: isForbiddenInText) { return "Name must not contain control characters." }
        if name.count > nameLengthRange.upperBound { return "Name must be at most \(nameLengthRange.upperBound) characters." }
        return nil
    }

    /// SCIM leaves `userName`'s form to the service; what no service takes is checked here.
    public static func userNameProblem(_ rawUserName: String) -> String? {
        let userName = rawUserName.trimmingWhitespace()
        if userName.unicodeScalars.contains(where: isForbiddenInText) { return "Username must not contain control characters." }
        if userName.count > maximumEmailLength { return "Username must be at most \(maximumEmailLength) characters." }
        return nil
    }

    public static func emailProblem(_ rawEmail: String) -> String? {
        let email = rawEmail.trimmingWhitespace()
        if email.isEmpty { return "Email is required." }
        if email.utf8.count > maximumEmailLength { return "Email must be at most \(maximumEmailLength) characters." }
        if !isPlausibleEmail(email) { return "Email must look like name@example.com." }
        return nil
    }

    /// C0 and C1 controls, DEL, and the line and paragraph separators: never part of a name.
    public static func isForbiddenInText(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: true
        default: false
        }
    }

    /// One "@", a non-empty local part without spaces or controls, and a domain of at least
    /// two dot-separated labels of letters, digits and hyphens (not at a label's ends).
    static func isPlausibleEmail(_ email: String) -> Bool {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        let local = parts[0], domain = parts[1]
        guard (1...64).contains(local.utf8.count),
              !local.unicodeScalars.contains(where: { $0.properties.isWhitespace || isForbiddenInText($0) || $0 == "\"" }),
              !local.hasPrefix("."), !local.hasSuffix("."), !local.contains("..")
        else { return false }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return false }
        for label in labels {
            guard (1...63).contains(label.utf8.count), !label.hasPrefix("-"), !label.hasSuffix("-"),
                  label.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" })
            else { return false }
        }
        return true
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var scalars = Substring(self).unicodeScalars
        while let first = scalars.first, first.properties.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
