/// The SQLite store is the Roster API's directory; every operation but the generation is
/// `UserStore`'s own.
extension UserStore: DirectoryStore {
    /// This process's write count: on SQLite the server is the only writer of its file.
    func generation() async throws -> UInt64 {
        writes.current
    }
}
