import Observation

/// The open connection picker (`C`): the profiles with a status each, probed in the
/// background, a typed filter, the highlighted row, and how opening the chosen one went.
@MainActor
@Observable
public final class ConnectionPickerModel {
    public let profiles: [ConnectionCatalog.Profile]
    /// The connection on screen.
    public let current: String
    /// Each profile's status once its probe answered; absent while probing.
    public internal(set) var statuses: [String: String] = [:]
    public internal(set) var filter = ""
    public internal(set) var highlighted = 0
    /// Set while the chosen connection is being opened, or why it could not be.
    public internal(set) var footer: String?
    public internal(set) var footerIsError = false
    public internal(set) var isOpening = false
    @ObservationIgnored private var probes: [Task<Void, Never>] = []

    init(profiles: [ConnectionCatalog.Profile], current: String) {
        self.profiles = profiles
        self.current = current
        highlighted = profiles.firstIndex { $0.name == current } ?? 0
    }

    /// The profiles the filter lets through, in the catalog's order.
    public var shown: [ConnectionCatalog.Profile] {
        filter.isEmpty ? profiles : profiles.filter { $0.name.localizedCaseInsensitiveContains(filter) }
    }

    public var highlightedProfile: ConnectionCatalog.Profile? {
        let shown = shown
        return shown.indices.contains(highlighted) ? shown[highlighted] : nil
    }

    /// Asks every profile how it is, each in its own task: a slow one never holds the others
    /// or the keys.
    func startProbes(_ probe: @escaping @Sendable (String) async -> String) {
        for profile in profiles {
            let name = profile.name
            probes.append(Task { [weak self] in
                let status = await probe(name)
                guard !Task.isCancelled else { return }
                self?.statuses[name] = status
            })
        }
    }

    func stopProbes() {
        probes.forEach { $0.cancel() }
        probes = []
    }

    func move(by delta: Int) {
        let count = shown.count
        guard count > 0 else { return }
        highlighted = (highlighted + delta % count + count) % count
    }

    func type(_ text: String) {
        filter += text
        highlighted = 0
        footer = nil
    }

    func deleteBackward() {
        guard !filter.isEmpty else { return }
        filter.removeLast()
        highlighted = 0
        footer = nil
    }

    func opening(_ name: String) {
        isOpening = true
        footerIsError = false
        footer = "Opening \(name)…"
    }

    /// An access review is reading: both sides' progress, where the opening line goes.
    func reviewing(_ progress: String) {
        isOpening = true
        footerIsError = false
        footer = progress
    }

    func failed(_ message: String) {
        isOpening = false
        footerIsError = true
        footer = message
    }
}
