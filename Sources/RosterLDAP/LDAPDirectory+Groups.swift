import RosterKit
import Foundation

/// Groups and membership on LDAP: groups are entries of the group class (`groupOfNames`, AD's
/// `group`) whose `member` values are the DNs of their members, read with ranged retrieval
/// (`member;range=0-1499`, as Active Directory sends a large group).
extension LDAPDirectory {
    public func listGroups(_ query: GroupQuery) async throws -> Page<Group> {
        let schema = try await schema()
        let root = try await rootDSE()
        var parts = [schema.groupFilter]
        if let text = query.search?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            parts.append(LDAPFilter.contains("cn", text))
        }
        let filter = LDAPFilter.all(parts)
        let sortKey = root.offersSort ? schema.groupSortKey(query.sort) : nil
        let offset = (query.page - 1) * query.perPage
        let size = query.perPage
        let paging = root.offersPaging
        let estimate = LDAPPager.Estimate(vendor: root.vendor)
        let slice = try await mapped(schema) {
            try await session.run("search", mayRepeat: true) { connection, cancel in
                // A large group's further members are read once the page is in: a search of
                // their own on this connection, not one inside the page's.
                let slice = try LDAPPager.page(connection, base: schema.groupsBase, filter: filter, attributes: schema.groupAttributes,
                                               sortKey: sortKey, offset: offset, size: size, paging: paging, estimate: estimate,
                                               cancel: cancel) { $0 }
                let groups = try slice.entries.map { entry in
                    Self.group(from: try Self.withAllMembers(entry, connection: connection, cancel: cancel), schema: schema)
                }
                return LDAPPager.Slice(entries: groups, hasMore: slice.hasMore, estimatedTotal: slice.estimatedTotal)
            }
        }
        return LDAPPager.rosterPage(slice, query: query.page, perPage: query.perPage)
    }

    public func group(id: String) async throws -> Group {
        let schema = try await schema()
        return Self.group(from: try await groupEntry(id, schema: schema), schema: schema)
    }

    public func createGroup(_ draft: GroupDraft, idempotencyKey: String) async throws -> Group {
        let schema = try await schemaForNewEntries()
        let name = draft.normalized.name
        let dn = LDAPDN.child("cn", name, of: schema.newGroupsParent)
        var values = [LDAPModification(.add, "objectClass", [schema.groupClass]), LDAPModification(.add, "cn", [name])]
        if schema.vendor == .activeDirectory {
            values.append(LDAPModification(.add, "sAMAccountName", [Self.accountName(for: name)]))
        } else if schema.groupClass.lowercased() == "groupofnames" {
            // groupOfNames must have a member: an empty group holds the empty DN.
            values.append(LDAPModification(.add, "member", [""]))
        }
        let attributes = values
        try await mapped(schema) {
            try await session.run("add", mayRepeat: false) { connection, cancel in try connection.add(dn: dn, attributes, cancel: cancel) }
        }
        return try await group(id: dn)
    }

    /// AD's pre-Windows 2000 name for a new group: the name without the characters AD refuses
    /// there (`"/\\[]:;|=,+*?<>`), at most 256 characters.
    static func accountName(for name: String) -> String {
        let refused = Set("\"/\\[]:;|=,+*?<>")
        let kept = String(name.map { refused.contains($0) ? "_" : $0 }.prefix(256))
        return kept.trimmingCharacters(in: CharacterSet(charactersIn: ". "))
    }

    public func renameGroup(id: String, to draft: GroupDraft) async throws -> Group {
        let schema = try await schema()
        let name = draft.normalized.name
        let newRDN = "cn=\(LDAPDN.escape(name))"
        let parent = LDAPDN.parent(of: id) ?? schema.groupsBase
        try await mapped(schema) {
            try await session.run("rename", mayRepeat: false) { connection, cancel in
                try connection.rename(dn: id, newRDN: newRDN, cancel: cancel)
            }
        }
        return try await group(id: "\(newRDN),\(parent)")
    }

    public func deleteGroup(id: String) async throws {
        let schema = try await schema()
        try await mapped(schema) {
            try await session.run("delete", mayRepeat: false) { connection, cancel in try connection.delete(dn: id, cancel: cancel) }
        }
    }

    /// A page of the group's members: by `memberOf` where people carry it (the search, sort
    /// and paging of any list apply), else from the group's `member` values, read one by one.
    public func members(of groupID: String, _ query: UserQuery) async throws -> Page<User> {
        let schema = try await schema()
        if try await keepsMemberOf(schema) {
            var filtered = query
            filtered.group = groupID
            return try await listUsers(filtered)
        }
        let memberDNs = Self.memberValues(try await groupEntry(groupID, schema: schema))
        let slice = memberDNs.dropFirst((query.page - 1) * query.perPage).prefix(query.perPage)
        var users: [User] = []
        for dn in slice {
            do {
                users.append(try await user(id: dn))
            } catch APIError.notFound {
                continue
            }
        }
        return Page(items: users, page: query.page, perPage: query.perPage, total: memberDNs.count)
    }

    /// Adds and removes `member` values in one modify (all or nothing). A value already there
    /// (or already gone) makes the server refuse the whole modify: then the group is read and
    /// only what is still needed is sent.
    public func changeMembers(of groupID: String, _ change: MembershipChange) async throws -> Group {
        let schema = try await schema()
        let direct = Self.membershipChanges(add: change.add, remove: change.remove)
        do {
            if !direct.isEmpty {
                try await session.run("modify", mayRepeat: false) { connection, cancel in
                    try connection.modify(dn: groupID, direct, cancel: cancel)
                }
            }
        } catch let error as LDAPResultError
            // OpenLDAP says 20 or 16; Active Directory says 68 or 53 for the same; 65 is
            // groupOfNames losing its last member. The read and the difference sort them out.
            where [LDAPResultError.attributeOrValueExists, LDAPResultError.noSuchAttribute, LDAPResultError.objectClassViolation,
                   LDAPResultError.alreadyExists, LDAPResultError.unwillingToPerform].contains(error.code) {
            let current = Self.memberValues(try await groupEntry(groupID, schema: schema))
            let isMember = { (dn: String) in current.contains { LDAPDN.same($0, dn) } }
            let adding = change.add.filter { !isMember($0) }
            let removing = change.remove.filter(isMember)
            var changes = Self.membershipChanges(add: adding, remove: removing)
            // groupOfNames must keep a member: the empty DN stands in for none.
            let remaining = current.count + adding.count - removing.count
            if remaining == 0, schema.groupClass.lowercased() == "groupofnames" { changes.append(LDAPModification(.add, "member", [""])) }
            if adding.count > 0, current.contains("") { changes.append(LDAPModification(.delete, "member", [""])) }
            if !changes.isEmpty { try await modify(groupID, changes, schema: schema) }
        } catch {
            throw LDAPErrorMapping.apiError(error, host: configuration.host, schema: schema)
        }
        return try await group(id: groupID)
    }

    // MARK: Reading groups

    private static func membershipChanges(add: [String], remove: [String]) -> [LDAPModification] {
        var changes: [LDAPModification] = []
        if !add.isEmpty { changes.append(LDAPModification(.add, "member", add)) }
        if !remove.isEmpty { changes.append(LDAPModification(.delete, "member", remove)) }
        return changes
    }

    private func groupEntry(_ dn: String, schema: LDAPSchema) async throws -> LDAPEntry {
        let attributes = schema.groupAttributes
        let found = try await mapped(schema) {
            try await session.run("read", mayRepeat: true) { connection, cancel in
                try connection.search(base: dn, scope: .base, filter: "(objectClass=*)", attributes: attributes, cancel: cancel)
                    .entries.first.map { try Self.withAllMembers($0, connection: connection, cancel: cancel) }
            }
        }
        guard let found else { throw APIError.notFound(ErrorBody(code: "no_such_group", message: "That group is no longer in the directory.")) }
        return found
    }

    /// The entry with every `member` value: where the server sent a range (`member;range=0-1499`),
    /// the next ranges are read until the one that ends in `*`.
    static func withAllMembers(_ entry: LDAPEntry, connection: LDAPConnection, cancel: CancelFlag) throws -> LDAPEntry {
        var entry = entry
        guard var rangeKey = entry.attributes.keys.first(where: { $0.hasPrefix("member;range=") }) else { return entry }
        var values: [String] = []
        while true {
            values += entry.attributes[rangeKey] ?? []
            let bounds = rangeKey.dropFirst("member;range=".count).split(separator: "-")
            guard bounds.count == 2, bounds[1] != "*", let last = Int(bounds[1]) else { break }
            let next = try connection.search(base: entry.dn, scope: .base, filter: "(objectClass=*)",
                                             attributes: ["member;range=\(last + 1)-*"], cancel: cancel).entries.first
            guard let next, let key = next.attributes.keys.first(where: { $0.hasPrefix("member;range=") }) else { break }
            entry.attributes[key] = next.attributes[key]
            entry.attributes[rangeKey] = nil
            rangeKey = key
        }
        entry.attributes[rangeKey] = nil
        entry.attributes["member"] = values
        return entry
    }

    /// The member DNs, without the empty DN that stands in for none.
    static func memberValues(_ entry: LDAPEntry) -> [String] {
        entry.values("member").filter { !$0.isEmpty }
    }

    static func group(from entry: LDAPEntry, schema: LDAPSchema) -> Group {
        let isAD = schema.vendor == .activeDirectory
        let created = entry.first(isAD ? "whenCreated" : "createTimestamp").flatMap(LDAPUserMapping.generalizedTime)
        let modified = entry.first(isAD ? "whenChanged" : "modifyTimestamp").flatMap(LDAPUserMapping.generalizedTime)
        return Group(id: entry.dn, name: entry.text("cn") ?? LDAPDN.firstValue(entry.dn), memberCount: memberValues(entry).count,
                     createdAt: created ?? modified ?? Date(timeIntervalSince1970: 0),
                     updatedAt: modified ?? created ?? Date(timeIntervalSince1970: 0))
    }

    /// Whether people carry `memberOf`: Active Directory always; elsewhere, whether any person has one.
    private func keepsMemberOf(_ schema: LDAPSchema) async throws -> Bool {
        if let memberOfIsKept { return memberOfIsKept }
        if schema.vendor == .activeDirectory { memberOfIsKept = true; return true }
        let filter = LDAPFilter.all([schema.personFilter, LDAPFilter.present("memberOf")])
        let found = try await mapped(schema) {
            try await session.run("search", mayRepeat: true) { connection, cancel in
                try connection.search(base: schema.peopleBase, scope: .subtree, filter: filter, attributes: ["1.1"], sizeLimit: 1,
                                      cancel: cancel).entries.isEmpty == false
            }
        }
        memberOfIsKept = found
        return found
    }
}
