/// A store whose writes are the rules in this folder over its engine's rows: the Roster API's
/// (`RowStore+Users`, `RowStore+Groups`) and SCIM's (`RowStore+SCIM`). Each engine gives
/// only its rows and its transaction.
protocol RowStore: Sendable {
    associatedtype Rows: DirectoryRows

    /// One write transaction around `body`: all of it commits, or (a refusal, a failure) none.
    /// Once it commits, `generation()` has moved in every process.
    func writeRows<T: Sendable>(_ body: @escaping @Sendable (Rows) async throws -> T) async throws -> T
}
