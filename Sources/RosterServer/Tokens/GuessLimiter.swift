import Logging
import NIOConcurrencyHelpers
import RosterKit
import Synchronization

/// Slows down guessing tokens: after `allowed` bad tokens in a row from one address, every
/// protected call from it is answered 429 for a while that doubles with each further bad
/// token (1 s, 2 s, 4 s… up to `longestWait`). A good token resets the address; other
/// addresses are never affected.
final class GuessLimiter: Sendable {
    static let allowed = 10
    static let longestWait: Duration = .seconds(300)
    /// Addresses remembered at most; the quietest go first beyond it.
    static let maximumAddresses = 10_000

    private struct Record {
        var failures: Int
        var blockedUntil: ContinuousClock.Instant?
        var lastSeen: ContinuousClock.Instant
    }

    private let records = NIOLockedValueBox<[String: Record]>([:])
    /// How many addresses `records` holds, readable without the lock: while none has sent a bad
    /// token (the usual case) a request neither takes the lock nor formats its address.
    private let tracked = Atomic<Int>(0)
    private let clock = ContinuousClock()
    private let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    /// Whole seconds the address must still wait, or nil when it may try.
    func wait(for address: @autoclosure () -> String) -> Int? {
        guard tracked.load(ordering: .acquiring) > 0 else { return nil }
        let now = clock.now
        let address = address()
        return records.withLockedValue { records -> Int? in
            guard let until = records[address]?.blockedUntil, until > now else { return nil }
            return Self.seconds(until - now)
        }
    }

    /// A bad token from `address`: the wait it now has to keep, in whole seconds, if any.
    @discardableResult
    func failed(from address: String) -> Int? {
        let now = clock.now
        let (failures, wait) = records.withLockedValue { records -> (Int, Duration?) in
            var record = records[address] ?? Record(failures: 0, lastSeen: now)
            record.failures += 1
            record.lastSeen = now
            var wait: Duration?
            if record.failures >= Self.allowed {
                let doublings = min(record.failures - Self.allowed, 20)
                wait = min(.seconds(1 << doublings), Self.longestWait)
                record.blockedUntil = now + wait!
            }
            records[address] = record
            if records.count > Self.maximumAddresses { Self.forgetQuietest(&records) }
            tracked.store(records.count, ordering: .releasing)
            return (record.failures, wait)
        }
        guard let wait else { return nil }
        logger.warning("repeated bad tokens: answering 429", metadata: [
            "address": "\(address)", "bad_tokens": "\(failures)", "retry_after_seconds": "\(Self.seconds(wait))"])
        return Self.seconds(wait)
    }

    /// A good token from `address`: its count starts again.
    func succeeded(from address: @autoclosure () -> String) {
        guard tracked.load(ordering: .acquiring) > 0 else { return }
        let address = address()
        records.withLockedValue { records in
            guard records[address] != nil else { return }
            records[address] = nil
            tracked.store(records.count, ordering: .releasing)
        }
    }

    private static func forgetQuietest(_ records: inout [String: Record]) {
        let oldest = records.sorted { $0.value.lastSeen < $1.value.lastSeen }.prefix(records.count / 10)
        for (address, _) in oldest { records[address] = nil }
    }

    private static func seconds(_ duration: Duration) -> Int {
        max(1, Int(duration.seconds.rounded(.up)))
    }
}
