import Foundation
import RosterKit

/// Recognises a column by its header text: the bulk templates of Google Workspace, Entra ID
/// and Okta, Roster's own export, and the SCIM and LDAP attribute names. A profile attribute
/// (title, department, employee number) is placed only when the directory has it. A header is compared
/// without case, spaces, `_` or `-`, and without a template's markers: Google's `[Required]`
/// or `[UPLOAD ONLY]` and Entra's trailing `Required`; Entra's attribute in brackets
/// (`User name [userPrincipalName] Required`) is tried first.
public enum ImportHeader {
    /// What each known header means, by its squeezed text (`squeezed`).
    static let known: [String: ImportField] = {
        var table: [String: ImportField] = [:]
        func add(_ field: ImportField, _ names: [String]) { for name in names { table[squeezed(name)] = field } }
        add(.name, ["name", "display name", "displayName", "full name", "cn", "common name"])
        add(.firstName, ["first name", "firstName", "givenName", "given name", "name.givenName"])
        add(.lastName, ["last name", "lastName", "surname", "sn", "family name", "familyName", "name.familyName"])
        add(.email, ["email", "mail", "email address", "e-mail", "userPrincipalName", "user principal name", "primary email",
                     "emails[type eq \"work\"].value", "emails.value", "work email"])
        add(.login, ["login", "userName", "user name", "uid", "sAMAccountName", "username"])
        add(.role, ["role"])
        add(.status, ["status", "new status", "account status", "user status"])
        add(.enabled, ["active", "accountEnabled", "account enabled", "enabled"])
        add(.blockSignIn, ["block sign in (yes/no)", "block sign in", "blockSignIn"])
        add(.groups, ["groups", "group", "memberOf", "member of", "group names"])
        // Google: Employee Title, Department, Employee ID; Entra: Job title [jobTitle],
        // Department [department]; Okta: title, department, employeeNumber.
        add(.attribute(.title), ["title", "job title", "jobTitle", "employee title"])
        add(.attribute(.department), ["department", "departmentNumber", "dept"])
        add(.attribute(.employeeNumber), ["employeeNumber", "employee number", "employee id", "employeeId"])
        return table
    }()

    /// The field `header` names, if it is one Roster knows.
    public static func field(for header: String) -> ImportField? {
        // Entra: "Block sign in (Yes/No) [accountEnabled] Required" is the inverse of its
        // attribute, so its words decide; elsewhere the bracketed attribute does.
        if let field = known[squeezed(header)] { return field }
        let words = known[squeezed(withoutMarkers(header))]
        if words == .blockSignIn { return words }
        if let attribute = bracketed(header), let field = known[squeezed(attribute)] { return field }
        return words
    }

    /// The field of each column, as far as the headers say; an attribute the directory does
    /// not have (not in `attributes`) is not placed.
    public static func recognise(_ headers: [String], attributes: [UserAttribute] = []) -> [ImportField?] {
        var seen = Set<ImportField>()
        return headers.map { header in
            guard let field = field(for: header), !seen.contains(field) else { return nil }
            if let attribute = field.attribute, !attributes.contains(attribute) { return nil }
            seen.insert(field)
            return field
        }
    }

    /// "First Name [Required]" → "First Name"; "Name [displayName] Required" → "Name".
    static func withoutMarkers(_ header: String) -> String {
        var text = header.trimmingCharacters(in: .whitespaces)
        if let open = text.firstIndex(of: "[") { text = String(text[..<open]) }
        for marker in [" Required", " (Required)"] where text.lowercased().hasSuffix(marker.lowercased()) {
            text = String(text.dropLast(marker.count))
        }
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// The text in the first `[...]` that is not a marker: Entra's attribute name.
    static func bracketed(_ header: String) -> String? {
        guard let open = header.firstIndex(of: "["), let close = header[open...].firstIndex(of: "]") else { return nil }
        let inside = String(header[header.index(after: open)..<close])
        let lower = inside.lowercased()
        return lower == "required" || lower == "upload only" || lower.hasPrefix("must") ? nil : inside
    }

    /// Lower case, without spaces, `_` and `-`: `Email Address`, `email_address`, `emailAddress`
    /// are one header.
    static func squeezed(_ text: String) -> String {
        String(text.lowercased().unicodeScalars.filter { $0 != " " && $0 != "_" && $0 != "-" }.map(Character.init))
    }
}
