import Observation
import RosterKit

/// A user's history in the detail pane (`h`), where the directory keeps one
/// (`DirectoryTraits.hasHistory`): their changes, newest first, by which token, which fields
/// from what to what. It belongs to one user; the pane shows it only while that user is the
/// one selected, so moving on shows the next user's record, and `h` again their history.
@MainActor
@Observable
public final class UserHistoryModel {
    /// The user whose history is open, or nil when it is closed.
    public private(set) var userID: String?
    public private(set) var state: LoadState<[UserChange]> = .idle

    @ObservationIgnored private let directory: any Directory
    @ObservationIgnored private let activity: Activity
    @ObservationIgnored private var work: TrackedTask?

    public init(directory: any Directory, activity: Activity) {
        self.directory = directory
        self.activity = activity
    }

    /// Opens `userID`'s history (loading it afresh), or closes it when it is the one open.
    public func toggle(for userID: String) {
        work?.cancel()
        work = nil
        if self.userID == userID {
            self.userID = nil
            state = .idle
            return
        }
        self.userID = userID
        state = .loading(previous: nil)
        let directory = self.directory
        work = activity.startLoad(spinnerAfter: Activity.backgroundGrace) { [weak self] in
            do {
                let changes = try await directory.history(ofUser: userID)
                guard let self, self.userID == userID else { return }
                work = nil
                state = .loaded(changes)
            } catch {
                guard let self, self.userID == userID, let failure = APIError.shown(for: error) else { return }
                work = nil
                state.fail(with: failure)
            }
        }
    }
}
