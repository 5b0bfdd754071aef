import Foundation

/// What `SCIMService` asks of storage, on SQLite (`SQLiteStore`) and PostgreSQL
/// (`PostgresStore`) alike: the same rows and write generation as the Roster API.
///
/// Every write is one transaction: a modify reads the resource, checks `If-Match`
/// (`versionMismatch`) and writes what `change` makes of it, so it never applies to a version it
/// did not see. Refusals are `StoreError`s; a filter or sort the store cannot run is a `SCIMProblem`.
protocol SCIMStore: Sendable {
    /// A page of users and `totalResults`.
    func scimUsers(_ query: SCIMListQuery) async throws -> (total: Int, records: [SCIMUserRecord])
    func scimUser(id: String) async throws -> SCIMUserRecord
    func createSCIMUser(_ write: SCIMUserWrite, at now: Date) async throws -> SCIMUserRecord
    func modifySCIMUser(
        id: String, ifMatch: String?, at now: Date,
        change: @escaping @Sendable (SCIMUserRecord) throws -> SCIMUserWrite
    ) async throws -> SCIMUserRecord
    /// Deletes the user if `If-Match` allows; memberships go with them.
    func deleteSCIMUser(id: String, ifMatch: String?, at now: Date) async throws

    /// A page of groups and `totalResults`; members are read only when asked for.
    func scimGroups(_ query: SCIMListQuery, withMembers: Bool) async throws -> (total: Int, records: [SCIMGroupRecord])
    func scimGroup(id: String) async throws -> SCIMGroupRecord
    /// Members are set as a whole; an id that is no user's refuses the write (`unknownUsers`).
    func createSCIMGroup(_ write: SCIMGroupWrite, at now: Date) async throws -> SCIMGroupRecord
    func modifySCIMGroup(
        id: String, ifMatch: String?, at now: Date,
        change: @escaping @Sendable (SCIMGroupRecord) throws -> SCIMGroupWrite
    ) async throws -> SCIMGroupRecord
    func deleteSCIMGroup(id: String, ifMatch: String?, at now: Date) async throws
}

extension SQLiteStore: SCIMStore {}
