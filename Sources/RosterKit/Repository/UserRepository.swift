/// The user directory as the app sees it: five operations, no HTTP. The view models depend
/// on this protocol only, so they run against the real server or an in-memory double alike.
///
/// Failures are `APIError`; a cancelled call throws `CancellationError`.
public protocol UserRepository: Sendable {
    func list(_ query: UserQuery) async throws -> Page<User>
    func get(id: String) async throws -> User
    func create(_ draft: UserDraft) async throws -> User
    func update(id: String, with draft: UserDraft) async throws -> User
    /// Returns the user as it was before removal.
    func delete(id: String) async throws -> User
}
