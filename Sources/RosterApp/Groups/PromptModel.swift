import Observation
import RosterKit

/// A one-line question with a request behind it: the name of a new group, or a group's new
/// name. The server's refusals about the text (taken, too long) show under the field and keep
/// what was typed; any other failure goes to the error dialog, whose retry sends it again.
@MainActor
@Observable
public final class PromptModel {
    public enum Phase: Sendable, Equatable {
        case editing
        case submitting
        /// Failed for a reason that is not the text's; `retry()` sends it again.
        case failed(APIError)
        case finished
    }

    public let title: String
    public let label: String
    public let submitLabel: String
    /// The name being typed, and why it cannot be used (under the field until the next edit).
    public private(set) var line: LineEditor
    public var field: TextFieldState { line.field }
    public var fieldError: String? { line.problem }
    public private(set) var phase: Phase = .editing

    /// Told once, when the question is done: `true` after the action succeeded, `false` when cancelled.
    @ObservationIgnored public var onFinish: (@MainActor (_ done: Bool) -> Void)?
    /// Told when the action failed for a reason that is not the text's.
    @ObservationIgnored public var onFailure: (@MainActor (APIError) -> Void)?

    @ObservationIgnored private let initialText: String
    @ObservationIgnored private let activity: Activity
    /// Checks the text before anything is sent: a problem, or nil when it may go.
    @ObservationIgnored private let check: (String) -> String?
    @ObservationIgnored private let action: @MainActor (_ text: String, _ idempotencyKey: String) async throws -> Void
    @ObservationIgnored private var work: TrackedTask?
    /// One key per text sent: the same text sent again after a failure reuses it, so a create
    /// whose answer was lost is not made twice where the server replays keys.
    @ObservationIgnored private var key: (text: String, value: String)?

    public init(
        title: String, label: String, text: String = "", submitLabel: String, activity: Activity,
        check: @escaping (String) -> String? = { _ in nil },
        action: @escaping @MainActor (_ text: String, _ idempotencyKey: String) async throws -> Void
    ) {
        self.title = title
        self.label = label
        self.submitLabel = submitLabel
        self.line = LineEditor(.groupName, label: label, text: text)
        self.initialText = text
        self.activity = activity
        self.check = check
        self.action = action
    }

    public var isSubmitting: Bool { phase == .submitting }
    /// Whether Esc should ask before throwing the text away.
    public var isDirty: Bool { field.text != initialText }

    public func edit(_ edit: TextEdit) {
        guard phase == .editing || phase.isFailed else { return }
        var line = self.line
        line.apply(edit)
        self.line = line
    }

    /// Enter: checks the text, then sends it.
    public func submit() {
        guard phase == .editing || phase.isFailed else { return }
        let text = field.text
        if let problem = check(text) {
            line.problem = problem
            return
        }
        let key = self.key?.text == text ? self.key!.value : IdempotencyKey.make()
        self.key = (text, key)
        phase = .submitting
        let action = self.action
        work = activity.startLoad { [weak self] in
            do {
                try await action(text, key)
                guard let self, phase == .submitting else { return }
                finish(done: true)
            } catch {
                guard let self, phase == .submitting, let failure = APIError.shown(for: error) else { return }
                work = nil
                if let message = Self.textProblem(failure) {
                    phase = .editing
                    line.problem = message
                } else {
                    phase = .failed(failure)
                    onFailure?(failure)
                }
            }
        }
    }

    /// After a failure that was not the text's: sends it again. Returns whether it did.
    @discardableResult
    public func retry() -> Bool {
        guard phase.isFailed else { return false }
        submit()
        return true
    }

    /// Esc: stops waiting (the server may still act) and closes.
    public func cancel() {
        guard phase != .finished else { return }
        work?.cancel()
        work = nil
        finish(done: false)
    }

    private func finish(done: Bool) {
        phase = .finished
        onFinish?(done)
    }

    /// What a refusal says about the text itself (a name taken, a name too long), if anything.
    static func textProblem(_ error: APIError) -> String? {
        switch error {
        case .conflict(let body), .validationFailed(let body):
            // A SCIM service's uniqueness error names userName whatever was taken: only a "name"
            // field's message is the text's; otherwise the error's own sentence.
            return body?.fields?.first { $0.field == "name" }?.message ?? body?.message ?? error.errorDescription
        default:
            return nil
        }
    }
}

extension PromptModel.Phase {
    var isFailed: Bool {
        if case .failed = self { return true }
        return false
    }
}
