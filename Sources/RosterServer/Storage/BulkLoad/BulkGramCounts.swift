import GRDB
import RosterKit
import NIOConcurrencyHelpers

/// The load's `ShortGramCounts`: each chunk counts its own users on its own thread, and adds
/// its counts here.
final class BulkGramCounts: Sendable {
    private let counts = NIOLockedValueBox(ShortGramCounts())

    func add(_ chunk: ShortGramCounts) {
        counts.withLockedValue { $0.add(chunk) }
    }

    /// Every chunk's counts added so far.
    var total: ShortGramCounts { counts.withLockedValue { $0 } }

    func add(to db: Database) throws {
        try total.add(to: db)
    }
}
