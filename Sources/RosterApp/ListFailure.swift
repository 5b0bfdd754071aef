import RosterKit

/// A reload of the whole list that failed: what the error dialog says and what `retry()`
/// repeats. (A single page failing in the background is an error row, not this.)
public struct ListFailure: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        /// The first load.
        case load
        case search(String)
        case sort(UserSort)
        case filter(ListFilter)
        case refresh
    }

    public var action: Action
    public var error: APIError

    public init(action: Action, error: APIError) {
        self.action = action
        self.error = error
    }

    /// The dialog's title, e.g. "Could not search for “ana”".
    public var title: String {
        switch action {
        case .load: "Could not load the users"
        case .search(let text) where text.isEmpty: "Could not load the users"
        case .search(let text): "Could not search for “\(text)”"
        case .sort(let sort): "Could not sort by \(sort.label)"
        case .filter(let filter) where filter.isEmpty: "Could not load the users"
        case .filter(let filter): "Could not filter by \(filter.summary)"
        case .refresh: "Could not refresh the list"
        }
    }
}

/// Everything needed to run a reload again exactly as it was.
struct ReloadRequest: Sendable, Equatable {
    var action: ListFailure.Action
    var search: String
    var sort: UserSort
    var filter: ListFilter
    var pages: ClosedRange<Int>
    /// The user to keep selected if the new results hold them.
    var keepUserID: String?
    /// Whether `keepUserID` was asked for (a saved user), not just the row selected at the time.
    var selectsSavedUser = false
    /// The row to select otherwise, and where on screen to keep it.
    var selection: Int
    var screenRow: Int
}
