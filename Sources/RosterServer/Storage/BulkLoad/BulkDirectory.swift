import RosterKit

/// Users and groups of them, loaded at once into a directory (`bulkInsert`): the seed.
struct BulkDirectory: Sendable {
    /// Each user already carries the groups it is in (`User.groups`), as its stored JSON will.
    var users: [User]
    var groups: [BulkGroup] = []
}

/// A group of a bulk load; its members are places in `BulkDirectory.users`.
struct BulkGroup: Sendable {
    var group: Group
    /// Ascending, each once.
    var members: [Int]
}
