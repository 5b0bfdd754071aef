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
    private let found = Mutex<[String: Found]>([:])

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

    /// The identity of `secret`, or nil when it is no live token's.
    func identify(_ secret: some Collection<UInt8>) async throws -> TokenIdentity? {
        if Self.constantTimeEqual(secret, bootstrap) { return .bootstrap }
        guard let store else { return nil }
        let hash = TokenRecord.hash(Array(secret))
        let clock = ContinuousClock()
        let moment = clock.now
        var record = found.withLock { cached -> TokenRecord? in
            guard let entry = cached[hash], moment - entry.readAt < Self.freshness else { return nil }
            return entry.record
        }
        if record == nil {
            record = try await store.token(secretHash: hash)
            found.withLock { cached in
                guard let record else { cached[hash] = nil; return }
                cached[hash] = Found(record: record, readAt: moment, markedUsedAt: cached[hash]?.markedUsedAt)
            }
        }
        let date = now()
        guard let record, record.isLive(at: date) else { return nil }
        noteUse(of: record.name, hash: hash, at: date, moment: moment, store: store)
        return TokenIdentity(name: record.name, scopes: record.scopes)
    }

    /// Writes `last_used_at` in the background, once a minute at most: a request never waits for it.
    private func noteUse(of name: String, hash: String, at date: Date, moment: ContinuousClock.Instant, store: any TokenStore) {
        let due = found.withLock { cached -> Bool in
            guard var entry = cached[hash] else { return false }
            if let marked = entry.markedUsedAt, moment - marked < Self.lastUsedEvery { return false }
            entry.markedUsedAt = moment
            cached[hash] = entry
            return true
        }
        guard due else { return }
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
