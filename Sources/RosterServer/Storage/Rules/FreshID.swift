/// Ids for new users and groups (`UserID`), on either engine. A collision needs two creates
/// in one millisecond drawing the same 40 random bits; should it happen, the id is drawn again.
enum FreshID {
    /// Inserts what `make` makes of a new id, drawing again while `insert` finds the id taken.
    static func insert<Resource>(
        atMilliseconds milliseconds: Int64, make: (_ id: String) -> Resource, insert: (Resource) async throws -> Bool
    ) async throws -> Resource {
        while true {
            let resource = make(UserID.make(milliseconds: milliseconds))
            if try await insert(resource) { return resource }
        }
    }
}
