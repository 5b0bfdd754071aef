import RosterKit
import Foundation

/// LDAP person entries as Roster's `User`, and a person's edits as modify operations of only
/// the attributes that changed (docs/design.md, "LDAP directories").
enum LDAPUserMapping {
    static func user(from entry: LDAPEntry, schema: LDAPSchema) -> User {
        let login = entry.text(schema.loginAttribute) ?? LDAPDN.firstValue(entry.dn)
        let given = entry.text("givenName")
        let family = entry.text("sn")
        let joined = [given, family].compactMap { $0 }.joined(separator: " ")
        let name = entry.text(schema.nameAttribute) ?? entry.text("cn") ?? (joined.isEmpty ? nil : joined) ?? login
        let emails = entry.values(schema.emailAttribute)
        let isAD = schema.vendor == .activeDirectory
        let created = (entry.first(isAD ? "whenCreated" : "createTimestamp")).flatMap(generalizedTime)
        let modified = (entry.first(isAD ? "whenChanged" : "modifyTimestamp")).flatMap(generalizedTime)
        let groups = entry.values("memberOf").map { GroupReference(id: $0, name: LDAPDN.firstValue($0)) }
        var user = User(
            id: entry.dn, name: name, email: emails.first ?? "", role: .member, status: status(of: entry, schema: schema),
            createdAt: created ?? modified ?? Date(timeIntervalSince1970: 0),
            updatedAt: modified ?? created ?? Date(timeIntervalSince1970: 0), groups: groups)
        // The detail pane's "directory details" (the type SCIM's users use for the same purpose).
        user.scim = SCIMDetails(
            userName: login, displayName: entry.text(schema.nameAttribute), givenName: given, familyName: family, emails: emails,
            phoneNumbers: entry.values("telephoneNumber"), groups: groups.map(\.name),
            manager: entry.text("manager").map(LDAPDN.firstValue))
        for (attribute, name) in schema.profileAttributes {
            if let value = entry.text(name) { user.attributes[attribute] = value }
        }
        return user
    }

    /// Suspended: locked for good by an administrator (ppolicy) or disabled (AD). Locked by
    /// failed logins is its own status, "locked", which an unlock clears.
    static func status(of entry: LDAPEntry, schema: LDAPSchema) -> Status {
        switch schema.status {
        case .passwordPolicy:
            guard let locked = entry.first("pwdAccountLockedTime") else { return .active }
            return locked == LDAPSchema.permanentLock ? .suspended : .unknown("locked")
        case .userAccountControl:
            let control = Int(entry.first("userAccountControl") ?? "") ?? 0
            if control & LDAPSchema.accountDisable != 0 { return .suspended }
            if let lockout = Int(entry.first("lockoutTime") ?? ""), lockout > 0 { return .unknown("locked") }
            return .active
        }
    }

    /// The modifications that make `entry` say what `draft` says; empty when nothing changed.
    /// Only the attributes behind changed fields are named; every other attribute is untouched.
    static func modifications(from draft: UserDraft, comparedWith entry: LDAPEntry, schema: LDAPSchema) throws -> [LDAPModification] {
        let current = user(from: entry, schema: schema)
        var changes: [LDAPModification] = []
        if draft.name != current.name {
            changes.append(LDAPModification(.replace, schema.nameAttribute, [draft.name]))
        }
        if draft.email != current.email {
            // The first value is the one shown: replace it, keep the others.
            let others = Array(entry.values(schema.emailAttribute).dropFirst())
            let values = draft.email.isEmpty ? others : [draft.email] + others.filter { $0 != draft.email }
            changes.append(values.isEmpty ? LDAPModification(.delete, schema.emailAttribute, [String]())
                                          : LDAPModification(.replace, schema.emailAttribute, values))
        }
        if let login = draft.userName?.trimmingCharacters(in: .whitespaces), !login.isEmpty, login != current.scim?.userName {
            if schema.loginAttribute.lowercased() == schema.rdnAttribute.lowercased() {
                throw APIError.validationFailed(ErrorBody(
                    code: "login_is_rdn", message: "The login names this entry in the directory and cannot be changed here.",
                    fields: [FieldError(field: "userName", message: "cannot be changed here: it is the entry's name")]))
            }
            changes.append(LDAPModification(.replace, schema.loginAttribute, [login]))
        }
        if let status = draft.status, status != current.status, status == .active || status == .suspended {
            changes += statusModifications(suspend: status == .suspended, entry: entry, schema: schema)
        }
        // Only the attributes the draft names, and of those only the changed: an empty value
        // deletes the attribute (every value of it).
        for (attribute, value) in draft.attributes.sorted(by: { $0.key < $1.key }) {
            guard let name = schema.profileAttributes[attribute] else { continue }
            let wanted = value.trimmingCharacters(in: .whitespaces)
            guard wanted != current.attributes[attribute] ?? "" else { continue }
            changes.append(wanted.isEmpty ? LDAPModification(.delete, name, [String]()) : LDAPModification(.replace, name, [wanted]))
        }
        return changes
    }

    static func statusModifications(suspend: Bool, entry: LDAPEntry, schema: LDAPSchema) -> [LDAPModification] {
        switch schema.status {
        case .passwordPolicy:
            if suspend { return [LDAPModification(.replace, "pwdAccountLockedTime", [LDAPSchema.permanentLock])] }
            return entry.first("pwdAccountLockedTime") == nil ? [] : [LDAPModification(.delete, "pwdAccountLockedTime", [String]())]
        case .userAccountControl:
            let control = Int(entry.first("userAccountControl") ?? "") ?? 512
            let changed = suspend ? control | LDAPSchema.accountDisable : control & ~LDAPSchema.accountDisable
            return changed == control ? [] : [LDAPModification(.replace, "userAccountControl", [String(changed)])]
        }
    }

    /// The DN and attributes of a new person. The login defaults to the email's local part.
    static func newEntry(from draft: UserDraft, schema: LDAPSchema) -> (dn: String, attributes: [LDAPModification]) {
        let name = draft.name.trimmingCharacters(in: .whitespaces)
        let login = draft.userName?.trimmingCharacters(in: .whitespaces).nilIfEmpty
            ?? String(draft.email.split(separator: "@").first ?? Substring(draft.email))
        let words = name.split(separator: " ").map(String.init)
        let family = words.last ?? name
        var values: [(String, [String])] = [
            ("objectClass", schema.newPersonClasses),
            ("cn", [name]),
            ("sn", [family]),
            (schema.nameAttribute, [name]),
            (schema.loginAttribute, [login]),
        ]
        if words.count > 1 { values.append(("givenName", [words.dropLast().joined(separator: " ")])) }
        if !draft.email.isEmpty { values.append((schema.emailAttribute, [draft.email])) }
        for (attribute, value) in draft.attributes.sorted(by: { $0.key < $1.key }) {
            let value = value.trimmingCharacters(in: .whitespaces)
            if let name = schema.profileAttributes[attribute], !value.isEmpty { values.append((name, [value])) }
        }
        if schema.vendor == .activeDirectory {
            // Created disabled (a normal account without a password); enabled as a second step.
            values.append(("userAccountControl", ["514"]))
        } else if draft.status == .suspended {
            values.append(("pwdAccountLockedTime", [LDAPSchema.permanentLock]))
        }
        // One attribute once, even where settings map two fields to it.
        var seen: Set<String> = []
        var attributes: [LDAPModification] = []
        for (attribute, list) in values where seen.insert(attribute.lowercased()).inserted {
            attributes.append(LDAPModification(.add, attribute, list))
        }
        let rdnValue = values.first { $0.0.lowercased() == schema.rdnAttribute.lowercased() }?.1.first ?? login
        return (LDAPDN.child(schema.rdnAttribute, rdnValue, of: schema.newPeopleParent), attributes)
    }

    /// An LDAP GeneralizedTime (RFC 4517 section 3.3.13): `YYYYMMDDHHMMSS[.fraction]Z`, read as
    /// the ISO 8601 `YYYY-MM-DDTHH:MM:SS[.fraction]Z` it spells by `ISO8601Timestamp`, which
    /// checks every field. A Gregorian `Calendar` made per value (as this was) was the largest
    /// part of mapping a page: two dates an entry, 100 calendars and time zones a page.
    static func generalizedTime(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 15, bytes.last == UInt8(ascii: "Z") else { return nil }
        var iso: [UInt8] = []
        iso.reserveCapacity(bytes.count + 5)
        for (index, byte) in bytes.enumerated() {
            switch index {
            case 4, 6: iso.append(UInt8(ascii: "-"))
            case 8: iso.append(UInt8(ascii: "T"))
            case 10, 12: iso.append(UInt8(ascii: ":"))
            default: break
            }
            iso.append(byte)
        }
        return ISO8601Timestamp.parse(String(decoding: iso, as: UTF8.self))
    }
}

private extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
