import Observation
import RosterKit

/// The detail pane: the selected user as the server has them now.
///
/// The pane follows the selection once it rests: it then shows what the list row already had
/// and asks the server for the current record. Holding j therefore neither sends a request nor
/// redraws the pane per row passed; on a slow link a keypress costs the list's two changed
/// lines, not the pane too. The first user is shown at once.
@MainActor
@Observable
public final class UserDetailModel {
    /// How long the selection must rest on a user before the pane shows and loads them: longer
    /// than the gap between repeated keys (10–40 per second), short enough to feel immediate.
    public static let settleDelay: Duration = .milliseconds(150)

    /// The user shown: the list's copy while loading, the server's once loaded, and still the
    /// list's copy if loading failed.
    public private(set) var state: LoadState<User> = .idle

    @ObservationIgnored private let directory: any Directory
    @ObservationIgnored private let activity: Activity
    /// The fetch of the shown user, while it runs.
    @ObservationIgnored private var work: TrackedTask?
    /// Until the selection rests: re-armed by each move, not restarted (see `MovableTimer`).
    @ObservationIgnored private let settle: MovableTimer
    /// Which show() the running work belongs to: a stale answer is dropped.
    @ObservationIgnored private var ticket = 0
    /// The user the pane moves to once the selection has rested, if it has not yet.
    @ObservationIgnored public private(set) var pendingUserID: String?

    public init(directory: any Directory, activity: Activity) {
        self.directory = directory
        self.activity = activity
        settle = MovableTimer(activity: activity)
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
        // Already headed for, showing or fetching exactly this: nothing to do.
        if pendingUserID == user.id { return }
        if state.value == user, !isFailed {
            if pendingUserID == nil { return }
            // Back on the shown user before the pane moved: stay, unless the move away
            // cancelled its fetch, which then starts again below.
            cancelWork()
            if !state.isLoading { return }
        }
        cancelWork(keepingTimer: true)
        if state.value == nil { state = .loading(previous: user) }
        pendingUserID = user.id
        let ticket = self.ticket
        settle.arm(after: Self.settleDelay) { [weak self] in
            guard let self, ticket == self.ticket else { return }
            pendingUserID = nil
            if state.value != user || !state.isLoading { state = .loading(previous: user) }
            fetch(user.id, ticket: ticket)
        }
    }

    /// Shows `user` as the server just returned them (after a save): at once, and without
    /// asking again.
    public func showSaved(_ user: User) {
        cancelWork()
        if state != .loaded(user) { state = .loaded(user) }
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

    private var isFailed: Bool { state.isFailed }

    private func fetch(_ id: String, ticket: Int) {
        let directory = self.directory
        work = activity.startLoad(spinnerAfter: Activity.backgroundGrace) { [weak self] in
            do {
                let user = try await directory.user(id: id)
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

    /// - Parameter keepingTimer: the caller arms the settle timer again at once, so it is
    ///   moved rather than stopped and started.
    private func cancelWork(keepingTimer: Bool = false) {
        ticket += 1
        pendingUserID = nil
        if !keepingTimer { settle.disarm() }
        work?.cancel()
        work = nil
    }
}
