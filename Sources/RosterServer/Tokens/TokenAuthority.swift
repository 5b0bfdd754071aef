import Crypto
import Foundation
import Logging
import NIOConcurrencyHelpers

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
    private let found = NIOLockedValueBox<[SHA256.Digest: Found]>([:])

    /// A token as read, with the identity each request hands on made once.
    private struct Found {
        var record: TokenRecord
        var identity: TokenIdentity
        var readAt: ContinuousClock.Instant
        var markedUsedAt: ContinuousClock.Instant?

        init(_ record: TokenRecord, readAt: ContinuousClock.Instant, markedUsedAt: ContinuousClock.Instant?) {
            self.record = record
            identity = TokenIdentity(name: record.name, scopes: record.scopes)
            self.readAt = readAt
            self.markedUsedAt = markedUsedAt
        }
    }

    /// What one use of a remembered token comes to.
    private struct Use {
        /// Nil when the token is revoked or expired.
        var identity: TokenIdentity?
        /// This use is the one to write as its last.
        var markUse: Bool
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
        // One lookup, the entry changed in place: this runs on every request.
        var use = found.withLockedValue { cached -> Use? in
            guard let index = cached.index(forKey: digest), moment - cached.values[index].readAt < Self.freshness else { return nil }
            return Self.use(&cached.values[index], at: date, moment: moment)
        }
        if use == nil {
            let record = try await store.token(secretHash: TokenRecord.hex(digest))
            use = found.withLockedValue { cached -> Use? in
                guard let record else { cached[digest] = nil; return nil }
                var entry = Found(record, readAt: moment, markedUsedAt: cached[digest]?.markedUsedAt)
                defer { cached[digest] = entry }
                return Self.use(&entry, at: date, moment: moment)
            }
        }
        guard let use, let identity = use.identity else { return nil }
        if use.markUse { noteUse(of: identity.name, at: date, store: store) }
        return identity
    }

    /// A use of a remembered token: its identity if live, and whether this use is the one to
    /// write as its last (once a minute at most; the entry then says it was, so the next
    /// requests do not).
    private static func use(_ entry: inout Found, at date: Date, moment: ContinuousClock.Instant) -> Use {
        guard entry.record.isLive(at: date) else { return Use(identity: nil, markUse: false) }
        if let marked = entry.markedUsedAt, moment - marked < lastUsedEvery { return Use(identity: entry.identity, markUse: false) }
        entry.markedUsedAt = moment
        return Use(identity: entry.identity, markUse: true)
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
