/// The version of a user on the Roster API: a weak entity tag made of `updated_at` as the wire
/// writes it (`W/"2026-11-21T09:30:00.250Z"`). The server moves `updated_at` forward by at least a
/// millisecond on every change, so the tag changes with each; the server sends it as `ETag` and
/// refuses a PUT whose `If-Match` names another with 412 (docs/api.md, "Edits that crossed").
extension User {
    public var entityTag: String { "W/\"" + ISO8601Timestamp.format(updatedAt) + "\"" }
}
