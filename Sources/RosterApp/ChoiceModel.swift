import Observation

/// A menu of one-key choices over the list: the bulk actions, then a role. A key picks; Esc
/// backs out.
@MainActor
@Observable
public final class ChoiceModel {
    public struct Option: Sendable, Equatable {
        public let key: Character
        public let label: String

        public init(key: Character, label: String) {
            self.key = key
            self.label = label
        }
    }

    public let title: String
    /// What the choice is about: "3 marked users".
    public let message: String
    public let options: [Option]
    /// What Esc does: "Cancel", or "Close" where nothing is being chosen.
    public var escapeLabel = "Cancel"
    /// Told once: the key chosen, or nil when backed out.
    @ObservationIgnored var onFinish: (@MainActor (Character?) -> Void)?

    public init(title: String, message: String, options: [Option]) {
        self.title = title
        self.message = message
        self.options = options
    }

    /// Picks the option with `key`; other keys do nothing. Returns whether one was picked.
    @discardableResult
    public func choose(_ key: Character) -> Bool {
        guard options.contains(where: { $0.key == key }) else { return false }
        finish(key)
        return true
    }

    public func cancel() {
        finish(nil)
    }

    private func finish(_ key: Character?) {
        let onFinish = self.onFinish
        self.onFinish = nil
        onFinish?(key)
    }
}
