/// The Roster API (`/api/v1`, docs/api.md) as a `Directory`.
public struct RosterAPIDirectory: Directory {
    public let client: APIClient
    /// The features the server's health answer named, once it has answered.
    private let features = FeatureMemo()
    /// Each user's version as last read, for `If-Match` on an edit.
    private let versions = UserVersions()

    public init(client: APIClient) {
        self.client = client
    }

    /// Everything, with groups when the server's health answer names them (older servers
    /// have none). A server that cannot be asked now is asked again next time.
    public func traits() async -> DirectoryTraits {
        var traits = DirectoryTraits.rosterAPI
        if let known = await features.value {
            traits.hasGroups = known.contains(HealthStatus.groupsFeature)
            traits.hasHistory = known.contains(HealthStatus.auditFeature)
        } else if let health = try? await health() {
            let named = health.features ?? []
            await features.set(named)
            traits.hasGroups = named.contains(HealthStatus.groupsFeature)
            traits.hasHistory = named.contains(HealthStatus.auditFeature)
        }
        return traits
    }

    /// Whether the server answers at all (no token needed).
    public func health() async throws -> HealthStatus {
        try await client.send(UserEndpoint.health)
    }

    // MARK: Users

    public func listUsers(_ query: UserQuery) async throws -> Page<User> {
        let page: Page<User> = try await client.send(UserEndpoint.list(query))
        await versions.remember(page.items)
        return page
    }

    public func user(id: String) async throws -> User {
        let user: User = try await client.send(UserEndpoint.get(id: id))
        await versions.remember(user)
        return user
    }

    /// Sends the create with its idempotency key. A server that replays keys (its health
    /// answer says so) gets the same request again when the answer is lost; any other server
    /// does not, and the user is told what a lookup by email found instead.
    public func createUser(_ draft: UserDraft, idempotencyKey: String) async throws -> User {
        let replays = await client.learnServerFeatures().contains(HealthStatus.idempotencyKeyFeature)
        do {
            let user: User = try await client.send(UserEndpoint.create(draft, idempotencyKey: idempotencyKey))
            await versions.remember(user)
            return user
        } catch let error as APIError where error.requestMayHaveArrived && !replays {
            throw await outcomeOfLostCreate(draft, lost: error)
        }
    }

    /// The user's last 50 changes from the audit log (a token with the `admin` scope).
    public func history(ofUser id: String) async throws -> [UserChange] {
        let page: AuditPage = try await client.send(AuditEndpoint.userHistory(id: id, limit: 50))
        return page.items
    }

    /// Sent with `If-Match`, the user's version as last read: a 412 means someone changed them
    /// since. (Bulk runs and undo edit users as read; the form says which version it started from.)
    public func updateUser(id: String, with draft: UserDraft) async throws -> User {
        try await update(id: id, with: draft, ifMatch: await versions.tag(of: id))
    }

    /// Sent with `If-Match`, the version of `original`: a 412 means someone changed the user
    /// since the form was opened, and the form shows the conflict.
    public func updateUser(_ original: User, with draft: UserDraft) async throws -> User {
        try await update(id: original.id, with: draft, ifMatch: original.entityTag)
    }

    /// A PUT is sent again when its answer was lost; if the first one landed, the retry meets
    /// its own change as a 412, and a user who now holds exactly the draft is that save done,
    /// not a conflict.
    private func update(id: String, with draft: UserDraft, ifMatch tag: String?) async throws -> User {
        do {
            let user: User = try await client.send(UserEndpoint.update(id: id, draft, ifMatch: tag))
            await versions.remember(user)
            return user
        } catch let error as APIError where tag != nil && error.status == 412 {
            let current = try await user(id: id)
            guard current.holds(draft) else { throw error }
            return current
        }
    }

    /// Sent with `If-Match`, the user's version as last read: a 412 means someone changed them
    /// since, and nothing was removed. The user is read again then, so the person sees the
    /// change, and deleting once more removes the version they now see.
    public func deleteUser(id: String) async throws {
        do {
            _ = try await client.response(for: UserEndpoint.delete(id: id, ifMatch: await versions.tag(of: id)))
        } catch let error as APIError where error.status == 412 {
            _ = try? await user(id: id)
            throw error
        }
        await versions.forget(id)
    }

    /// After a create whose answer was lost: looks the email up and says what it found. When
    /// the lookup fails too, nothing is known, and the first failure is what is said.
    private func outcomeOfLostCreate(_ draft: UserDraft, lost: APIError) async -> APIError {
        let email = draft.email.lowercased()
        guard let page = try? await listUsers(UserQuery(perPage: 20, search: draft.email)) else { return lost }
        return .createOutcomeUnknown(existing: page.items.first { $0.email.lowercased() == email })
    }

    // MARK: Groups

    public func listGroups(_ query: GroupQuery) async throws -> Page<Group> {
        try await client.send(GroupEndpoint.list(query))
    }

    public func group(id: String) async throws -> Group {
        try await client.send(GroupEndpoint.get(id: id))
    }

    /// A lost answer is sent again only where the server says it replays group keys
    /// (`HealthStatus.groupIdempotencyKeyFeature`, asked once); group names are unique, so a
    /// create that landed twice is impossible either way.
    public func createGroup(_ draft: GroupDraft, idempotencyKey: String) async throws -> Group {
        _ = await client.learnServerFeatures()
        return try await client.send(GroupEndpoint.create(draft, idempotencyKey: idempotencyKey))
    }

    public func renameGroup(id: String, to draft: GroupDraft) async throws -> Group {
        try await client.send(GroupEndpoint.rename(id: id, draft))
    }

    public func deleteGroup(id: String) async throws {
        _ = try await client.response(for: GroupEndpoint.delete(id: id))
    }

    public func members(of groupID: String, _ query: UserQuery) async throws -> Page<User> {
        try await client.send(GroupEndpoint.members(groupID: groupID, query))
    }

    /// One user in or out is `PUT` / `DELETE /groups/{id}/members/{user_id}`: idempotent, so
    /// the retry policy may send it again after a 429 or a lost answer (what a bulk run needs).
    /// More is one atomic `POST /groups/{id}/members`, never sent again blindly.
    public func changeMembers(of groupID: String, _ change: MembershipChange) async throws -> Group {
        if change.add.count + change.remove.count == 1 {
            let isMember = !change.add.isEmpty
            let userID = isMember ? change.add[0] : change.remove[0]
            return try await client.send(GroupEndpoint.setMember(groupID: groupID, userID: userID, isMember: isMember))
        }
        return try await client.send(GroupEndpoint.changeMembers(groupID: groupID, change))
    }
}

extension User {
    /// Whether the user has every field `draft` sets, as the server stores them (emails
    /// compared without case).
    func holds(_ draft: UserDraft) -> Bool {
        name == draft.name && email.lowercased() == draft.email.lowercased()
            && (draft.role.map { $0 == role } ?? true) && (draft.status.map { $0 == status } ?? true)
    }
}

/// A value learnt once and shared by copies of the directory.
actor FeatureMemo {
    private(set) var value: [String]?
    func set(_ features: [String]) { value = features }
}
