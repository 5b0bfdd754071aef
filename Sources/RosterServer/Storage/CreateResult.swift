/// What a create with an idempotency key did.
enum CreateResult<Resource: Sendable>: Sendable {
    /// A new user or group, and the answer recorded for its key.
    case created(Resource, IdempotentAnswer)
    /// The key's first answer, again; nothing was written.
    case replayed(IdempotentAnswer)

    /// The answer to send: the one recorded for the key (a new create's, or the first's).
    var answer: IdempotentAnswer {
        switch self {
        case .created(_, let answer), .replayed(let answer): answer
        }
    }
}
