import Observation
import RosterKit

/// The detail pane: the selected user as the server has them now. It shows what the list row
/// already had at once, and asks the server only once the selection settles, so holding j
/// does not send a request per row.
@MainActor
@Observable
public final class UserDetailModel {
    /// How long the selection must rest on a user before they are loaded.
    public static let settleDelay: Duration = .milliseconds(150)

    /// The user shown: the list's copy while loading, the server's once loaded, and still the
    /// list's copy if loading failed.
    public private(set) var state: LoadState<User> = .idle

    @ObservationIgnored private let repository: any UserRepository
    @ObservationIgnored private let activity: Activity
    @ObservationIgnored private var work: TrackedTask?
    /// Which show() the running work belongs to: a stale answer is dropped.
    @ObservationIgnored private var ticket = 0

    public init(repository: any UserRepository, activity: Activity) {
        self.repository = repository
        self.activity = activity
    }

    public var user: User? { state.value }

    /// Shows `user` (the list's copy) and loads them once the selection settles; nil clears
    /// the pane. A pending or running load for another user is cancelled.
    public func show(_ user: User?) {
        guard let user else {
            cancelWork()
            if case .idle = state {} else { state = .idle }
            return
        }
        // Already showing (or fetching) exactly this: nothing to do.
        if state.value == user, !isFailed { return }
        cancelWork()
        state = .loading(previous: user)
        let ticket = self.ticket
        work = activity.schedule(after: Self.settleDelay) { [weak self] in
            guard let self, ticket == self.ticket else { return }
            fetch(user.id, ticket: ticket)
        }
    }

    /// Loads the shown user again, now, after a failure. Returns whether it did.
    @discardableResult
    public func retry() -> Bool {
        guard isFailed, let id = state.value?.id else { return false }
        cancelWork()
        state.startLoading()
        fetch(id, ticket: ticket)
        return true
    }

    private var isFailed: Bool { state.error != nil }

    private func fetch(_ id: String, ticket: Int) {
        let repository = self.repository
        work = activity.startLoad { [weak self] in
            do {
                let user = try await repository.get(id: id)
                guard let self, ticket == self.ticket else { return }
                work = nil
                state = .loaded(user)
            } catch {
                guard let self, ticket == self.ticket, let failure = APIError.shown(for: error) else { return }
                work = nil
                state.fail(with: failure)
            }
        }
    }

    private func cancelWork() {
        ticket += 1
        work?.cancel()
        work = nil
    }
}
