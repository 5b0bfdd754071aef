import Foundation

/// Creates sent with an `Idempotency-Key`, on either engine: the key's record is written in
/// the create's own transaction, so no user or group exists without its key. Writes take
/// turns (one writer connection on SQLite, the generation row on PostgreSQL), so of creates
/// racing with one key exactly one finds no record and inserts; the others, once it
/// commits, replay its answer. Only successful creates are recorded: a refused one (409,
/// 422) leaves no record, so its retry simply runs again.
extension RowStore {
    /// The first answer to `request`'s key when it has one, else what `create` makes, its
    /// answer (`response`) recorded for the key. Expired records are deleted here, so the
    /// table holds about a day of keyed creates and needs no sweeper of its own.
    func create<Resource: Identifiable & Sendable>(
        idempotency request: IdempotentRequest, at now: Date, response: @escaping @Sendable (Resource) -> [UInt8],
        _ create: @escaping @Sendable (_ rows: Rows, _ milliseconds: Int64) async throws -> Resource
    ) async throws -> CreateResult<Resource> where Resource.ID == String {
        let milliseconds = Milliseconds.of(now)
        let expired = milliseconds - IdempotentRequest.lifetime
        return try await writeRows { rows in
            try await rows.deleteKeys(createdAtOrBefore: expired)
            if let first = try KeyedCreate.answer(to: request, from: await rows.keyRecord(request.key, createdAfter: expired)) {
                return .replayed(first)
            }
            let resource = try await create(rows, milliseconds)
            let answer = IdempotentAnswer(resourceID: resource.id, response: response(resource))
            try await rows.insertKeyRecord(request, answer: answer, atMilliseconds: milliseconds)
            return .created(resource, answer)
        }
    }
}

enum KeyedCreate {
    /// The first answer a live key's record holds for `request`; nil without a record.
    /// - Throws: `idempotencyKeyReused` when the key came with another body (compared byte for byte).
    static func answer(to request: IdempotentRequest, from record: (body: Data, answer: IdempotentAnswer)?) throws -> IdempotentAnswer? {
        guard let record else { return nil }
        guard record.body == request.body else { throw StoreError.idempotencyKeyReused }
        return record.answer
    }
}
