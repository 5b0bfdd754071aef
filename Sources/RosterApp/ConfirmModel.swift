import Observation
import RosterKit

/// A yes/no question before something that cannot be undone (delete a user, discard a form).
/// When confirming runs a request, the dialog stays up while it runs and shows its failure
/// with a retry, so the person sees the outcome where they asked for it.
@MainActor
@Observable
public final class ConfirmModel {
    public enum Phase: Sendable, Equatable {
        case asking
        /// The confirmed action is running; a second confirm is ignored.
        case working
        /// The action failed; `retry()` (or confirming again) runs it again.
        case failed(APIError)
        case finished
    }

    public enum Outcome: Sendable, Equatable {
        case confirmed
        case cancelled
    }

    public let title: String
    public let message: String
    /// The button that goes ahead, e.g. "Delete".
    public let confirmLabel: String
    /// The button that backs out, e.g. "Keep editing".
    public let cancelLabel: String
    /// Drawn as a warning.
    public let isDestructive: Bool
    public private(set) var phase: Phase = .asking

    /// Told once, when the dialog is done: confirmed (and the action succeeded) or cancelled.
    @ObservationIgnored public var onFinish: (@MainActor (Outcome) -> Void)?

    @ObservationIgnored private let activity: Activity
    @ObservationIgnored private let action: (@MainActor () async throws -> Void)?
    @ObservationIgnored private var work: TrackedTask?

    /// - Parameter action: what confirming does; nil for a question that needs no request.
    public init(
        title: String, message: String, confirmLabel: String, cancelLabel: String = "Cancel", isDestructive: Bool = false,
        activity: Activity, action: (@MainActor () async throws -> Void)? = nil
    ) {
        self.title = title
        self.message = message
        self.confirmLabel = confirmLabel
        self.cancelLabel = cancelLabel
        self.isDestructive = isDestructive
        self.activity = activity
        self.action = action
    }

    /// y or Enter.
    public func confirm() {
        switch phase {
        case .asking, .failed: break
        case .working, .finished: return
        }
        guard let action else {
            finish(.confirmed)
            return
        }
        phase = .working
        work = activity.startLoad { [weak self] in
            do {
                try await action()
                self?.finish(.confirmed)
            } catch {
                guard let self, let failure = APIError.shown(for: error), phase == .working else { return }
                work = nil
                phase = .failed(failure)
            }
        }
    }

    /// After a failure: runs the action again.
    @discardableResult
    public func retry() -> Bool {
        guard case .failed = phase else { return false }
        confirm()
        return true
    }

    /// n or Esc. While the action runs, stops waiting for it (the server may still do it).
    public func cancel() {
        guard phase != .finished else { return }
        work?.cancel()
        work = nil
        finish(.cancelled)
    }

    private func finish(_ outcome: Outcome) {
        guard phase != .finished else { return }
        phase = .finished
        onFinish?(outcome)
    }
}
