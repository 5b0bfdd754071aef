import Crypto
import Foundation
import Logging
import Synchronization

/// Says whose a bearer token is: the bootstrap token (`--token`, compared in constant time,
/// no database), or a named token found by its secret's hash. A named token found is
/// remembered for `freshness` only, so a revocation or expiry written by any replica on the
/// same database is honoured within that time, without a restart; the hot path reads the
/// database at most that often per token. A quarter of the second the promise allows: at
/// 500 ms a loaded machine's request latency took a replica's refusal past the second.
final class TokenAuthority: Sendable {
    static let freshness: Duration = .milliseconds(250)
    /// `last_used_at` is written at most this often per token.
    static let lastUsedEvery: Duration = .seconds(60)

    private let bootstrap: [UInt8]
    private let store: (any TokenStore)?
    private let now: @Sendable () -> Date
    private let logger: Logger
    /// By the secret's digest (never the secret): the hex form the database wants is made only
    /// when the database is read, not on every request.
    private let found = Mutex<[SHA256.Digest: Found]>([:])

    private struct Found {
        var record: TokenRecord
        var readAt: ContinuousClock.Instant
        var markedUsedAt: ContinuousClock.Instant?
    }

    /// - Parameter store: nil accepts the bootstrap token only.
    init(bootstrapToken: String, store: (any TokenStore)?, now: @escaping @Sendable () -> Date = { Date() }, logger: Logger) {
        bootstrap = Array(bootstrapToken.utf8)
        self.store = store
        self.now = now
        self.logger = logger
    }

    /// The identity of `secret`, or nil when it is no live token's. The hot path, a token read
    /// less than `freshness` ago: one hash and one lock, which also says whether its last use
    /// is due to be written.
    func identify(_ secret: some Collection<UInt8>) async throws -> TokenIdentity? {
        if Self.constantTimeEqual(secret, bootstrap) { return .bootstrap }
        guard let store else { return nil }
        // Hashed where the header's bytes lie: no copy.
        let digest = secret.withContiguousStorageIfAvailable { SHA256.hash(data: UnsafeRawBufferPointer($0)) }
            ?? SHA256.hash(data: Array(secret))
        let moment = ContinuousClock.now
        let date = now()
        var answer = found.withLock { cached -> (record: TokenRecord, markUse: Bool)? in
            guard let entry = cached[digest], moment - entry.readAt < Self.freshness else { return nil }
            return (entry.record, Self.markUse(of: entry.record, in: &cached[digest], at: date, moment: moment))
        }
        if answer == nil {
            let record = try await store.token(secretHash: TokenRecord.hex(digest))
            answer = found.withLock { cached -> (record: TokenRecord, markUse: Bool)? in
                guard let record else { cached[digest] = nil; return nil }
                cached[digest] = Found(record: record, readAt: moment, markedUsedAt: cached[digest]?.markedUsedAt)
                return (record, Self.markUse(of: record, in: &cached[digest], at: date, moment: moment))
            }
        }
        guard let answer, answer.record.isLive(at: date) else { return nil }
        if answer.markUse { noteUse(of: answer.record.name, at: date, store: store) }
        return TokenIdentity(name: answer.record.name, scopes: answer.record.scopes)
    }

    /// Whether this use of a live token is the one to write as its last (once a minute at
    /// most); if so, the entry says it was, so the next requests do not.
    private static func markUse(of record: TokenRecord, in entry: inout Found?, at date: Date, moment: ContinuousClock.Instant) -> Bool {
        guard record.isLive(at: date), entry != nil else { return false }
        if let marked = entry?.markedUsedAt, moment - marked < lastUsedEvery { return false }
        entry?.markedUsedAt = moment
        return true
    }

    /// Writes `last_used_at` in the background: a request never waits for it.
    private func noteUse(of name: String, at date: Date, store: any TokenStore) {
        let logger = self.logger
        Task {
            do {
                try await store.markUsed(name: name, at: date)
            } catch {
                logger.warning("could not note a token's last use", metadata: ["token": "\(name)", "error": "\(error)"])
            }
        }
    }

    /// Compared byte by byte to the end whatever differs, so the time taken says nothing about
    /// how much of a guess was right.
    static func constantTimeEqual(_ given: some Collection<UInt8>, _ expected: [UInt8]) -> Bool {
        guard given.count == expected.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(given, expected) { difference |= a ^ b }
        return difference == 0
    }
}
