import Observation
import RosterKit

/// Choose one thing by typing part of its name: a user to add to a group, a group to add a
/// user to or take them out of. The choices follow the text after a short pause; Enter runs the
/// action on the highlighted one, and the picker stays up (with its spinner, then its failure
/// and a retry) until the action has answered, so the outcome shows where it was asked for.
@MainActor
@Observable
public final class PickerModel {
    /// One thing to choose.
    public struct Choice: Sendable, Equatable, Identifiable {
        public var id: String
        public var title: String
        /// A second column: the email of a user.
        public var detail: String

        public init(id: String, title: String, detail: String = "") {
            self.id = id
            self.title = title
            self.detail = detail
        }
    }

    public enum Phase: Sendable, Equatable {
        case choosing
        case working(Choice)
        /// The action failed; Enter (or `retry()`) runs it again on the same choice.
        case failed(Choice, APIError)
        case finished
    }

    /// The most choices shown.
    public static let limit = 8

    public let title: String
    public let label: String
    public let actionLabel: String
    public private(set) var field = TextFieldState()
    /// The choices for the text typed; their last good value stays while a search runs.
    public private(set) var choices: LoadState<[Choice]> = .idle
    public private(set) var selection = 0
    public private(set) var phase: Phase = .choosing

    /// Told once: `true` after the action succeeded, `false` when cancelled.
    @ObservationIgnored public var onFinish: (@MainActor (_ done: Bool) -> Void)?

    @ObservationIgnored private let activity: Activity
    @ObservationIgnored private let search: @Sendable (String) async throws -> [Choice]
    @ObservationIgnored private let action: @MainActor (Choice) async throws -> Void
    @ObservationIgnored private var searchWork: TrackedTask?
    @ObservationIgnored private var actionWork: TrackedTask?
    @ObservationIgnored private var searchGeneration = 0

    public init(
        title: String, label: String, actionLabel: String, activity: Activity,
        search: @escaping @Sendable (String) async throws -> [Choice], action: @escaping @MainActor (Choice) async throws -> Void
    ) {
        self.title = title
        self.label = label
        self.actionLabel = actionLabel
        self.activity = activity
        self.search = search
        self.action = action
    }

    public var selected: Choice? {
        guard let list = choices.value, list.indices.contains(selection) else { return nil }
        return list[selection]
    }

    public var isWorking: Bool {
        if case .working = phase { return true }
        return false
    }

    /// Searches for the empty text at once: the first choices show without typing.
    public func start() {
        runSearch(after: .zero)
    }

    public func edit(_ edit: TextEdit) {
        guard !isWorking, phase != .finished else { return }
        var field = self.field
        let changed = field.apply(edit)
        self.field = field
        if changed {
            if case .failed = phase { phase = .choosing }
            runSearch(after: UserListModel.searchDebounce)
        }
    }

    public func moveDown() { moveSelection(by: 1) }
    public func moveUp() { moveSelection(by: -1) }

    /// Enter: runs the action on the highlighted choice.
    public func choose() {
        let choice: Choice
        switch phase {
        case .choosing:
            guard let selected else { return }
            choice = selected
        case .failed(let failed, _):
            choice = failed
        case .working, .finished:
            return
        }
        phase = .working(choice)
        let action = self.action
        actionWork = activity.startLoad { [weak self] in
            do {
                try await action(choice)
                guard let self, phase == .working(choice) else { return }
                phase = .finished
                onFinish?(true)
            } catch {
                guard let self, phase == .working(choice), let failure = APIError.shown(for: error) else { return }
                actionWork = nil
                phase = .failed(choice, failure)
            }
        }
    }

    /// Runs the failed action again, else the failed search. Returns whether anything had failed.
    @discardableResult
    public func retry() -> Bool {
        if case .failed = phase {
            choose()
            return true
        }
        if choices.error != nil {
            runSearch(after: .zero)
            return true
        }
        return false
    }

    /// Esc: closes, no longer waiting for an action in flight (the server may still do it).
    public func cancel() {
        guard phase != .finished else { return }
        searchWork?.cancel()
        actionWork?.cancel()
        phase = .finished
        onFinish?(false)
    }

    private func moveSelection(by delta: Int) {
        guard !isWorking, let count = choices.value?.count, count > 0 else { return }
        let moved = min(max(0, selection + delta), count - 1)
        if moved != selection { selection = moved }
    }

    private func runSearch(after delay: Duration) {
        searchGeneration += 1
        let generation = searchGeneration
        searchWork?.cancel()
        let text = field.text
        let search = self.search
        let load: @MainActor @Sendable () -> Void = { [weak self] in
            guard let self, generation == searchGeneration else { return }
            choices.startLoading()
            searchWork = activity.startLoad { [weak self] in
                do {
                    let found = Array(try await search(text).prefix(Self.limit))
                    guard let self, generation == searchGeneration else { return }
                    choices.succeed(with: found)
                    selection = 0
                } catch {
                    guard let self, generation == searchGeneration, let failure = APIError.shown(for: error) else { return }
                    choices.fail(with: failure)
                }
            }
        }
        if delay == .zero { load() } else { searchWork = activity.schedule(after: delay, load) }
    }
}
