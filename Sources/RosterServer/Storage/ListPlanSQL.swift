import RosterKit
import NIOConcurrencyHelpers

extension ListPlan {
    /// What a list statement's text depends on; the values go in its arguments.
    struct Shape: Hashable, Sendable {
        enum SearchKind: Hashable, Sendable {
            /// No search.
            case everyone
            /// A pattern no user can match (a control character).
            case matchesNoOne
            /// Long enough for the trigram index.
            case indexed
            /// Too short for trigrams: `instr` over the keys.
            case scanned

            init(_ folded: String) {
                if folded.isEmpty {
                    self = .everyone
                } else if folded.unicodeScalars.contains(where: UserValidation.isForbiddenInText) {
                    self = .matchesNoOne
                } else if folded.unicodeScalars.count >= ListPlan.minimumIndexedSearchLength {
                    self = .indexed
                } else {
                    self = .scanned
                }
            }
        }

        var columns: String
        var sort: UserSort
        var role: Bool
        var status: Bool
        var group: Bool
        var search: SearchKind
    }

    /// Statement text by shape. Building it (interpolation, joins, Foundation's string
    /// replacement) was 4% of a first page's time under wrk; there are at most a few hundred
    /// shapes, so each is built once.
    static let sqlCache = ListPlanSQL()
}

final class ListPlanSQL: Sendable {
    private let texts = NIOLockedValueBox<[ListPlan.Shape: (page: String, reversedPage: String, count: String)]>([:])

    func sql(for shape: ListPlan.Shape) -> (page: String, reversedPage: String, count: String) {
        if let known = texts.withLockedValue({ $0[shape] }) { return known }
        let built = ListPlan.sql(for: shape)
        texts.withLockedValue { $0[shape] = built }
        return built
    }
}
