/// Each user's version (`User.entityTag`) as this client last read it, so an edit sends
/// `If-Match` and a change someone made in between is told (412), not overwritten. Bounded:
/// when full, the oldest half goes (an edit of one of those is sent without `If-Match`, as
/// before). Shared by copies of the directory.
actor UserVersions {
    private var tags: [String: String] = [:]
    private var readOrder: [String] = []
    static let kept = 10_000

    func remember(_ users: some Sequence<User>) {
        for user in users {
            if tags.updateValue(user.entityTag, forKey: user.id) == nil { readOrder.append(user.id) }
        }
        guard tags.count > Self.kept else { return }
        let dropped = readOrder.prefix(readOrder.count / 2)
        for id in dropped { tags[id] = nil }
        readOrder.removeFirst(dropped.count)
    }

    func remember(_ user: User) { remember(CollectionOfOne(user)) }

    func tag(of id: String) -> String? { tags[id] }

    func forget(_ id: String) { tags[id] = nil }
}
