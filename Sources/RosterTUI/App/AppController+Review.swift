import RosterApp
import RosterKit

/// An access review on screen: its four lists, each a normal Roster list (an `AppModel` over a
/// `ReviewListDirectory`), so search, marks, bulk actions, CSV export and undo are the list's
/// own. A list's writes go to the connection its accounts live in (the target's, but for the
/// people only in the source), journalled under that connection's name as its own session's are.
@MainActor
struct ReviewLists {
    /// "saas ⇐ hr": the target, reviewed against the source.
    let title: String
    var lists: [(list: ReviewFindings.List, count: Int, model: AppModel)]
    var shown = 0
    /// The lists loaded so far (each loads when first shown).
    var started: Set<Int> = []
}

extension AppController {
    /// Ctrl-R in the picker: the connection on screen (the target) reviewed against the
    /// highlighted profile (the source). Both are read at once, their progress in the picker's
    /// footer; then the leavers are shown. Esc while reading closes the picker and drops it.
    func startReview(against profile: ConnectionCatalog.Profile, in picker: ConnectionPickerModel) {
        guard let connections else { return }
        let targetName = connections.current
        guard connections.review == nil, let target = connections.sessions[targetName] else {
            return picker.failed("Leave the review first: choose a connection.")
        }
        guard profile.name != targetName else {
            return picker.failed("Highlight another profile to compare \(targetName) with: Ctrl-R reviews the connection on screen against it.")
        }
        let open = connections.catalog.open
        let source = connections.sessions[profile.name]
        picker.reviewing("Reading \(profile.name) and \(targetName)…")
        Task { [weak self] in
            do {
                let sourceDirectory: any Directory
                let sourceRecorder: ChangeRecorder?
                if let source {
                    sourceDirectory = source.model.connectionDirectory
                    sourceRecorder = source.model.recorder
                } else {
                    sourceDirectory = try await open(profile.name).directory
                    sourceRecorder = nil
                }
                let meter = ReviewMeter()
                let outcome = try await AccessReview.run(
                    source: ReviewSide(directory: sourceDirectory, key: .email),
                    target: ReviewSide(directory: target.model.connectionDirectory, key: .email)
                ) { side, progress in
                    Task { @MainActor [weak picker] in
                        meter.progress[side] = progress
                        picker?.reviewing(meter.line(source: profile.name, target: targetName))
                    }
                }
                guard let self, self.connections?.picker === picker else { return }
                self.showReview(outcome.findings, source: (profile.name, sourceDirectory, sourceRecorder), target: (targetName, target.model))
            } catch {
                picker.failed("Review of \(targetName) against \(profile.name): \(error)")
            }
        }
    }

    /// `roster compare SOURCE TARGET` in a terminal: the review of the connection on screen
    /// against `source` starts at once, its progress in the picker as after Ctrl-R.
    public func startReview(named source: String) {
        guard let connections, let profile = connections.catalog.profiles.first(where: { $0.name == source }) else { return }
        let picker = ConnectionPickerModel(profiles: connections.catalog.profiles, current: connections.current)
        self.connections?.picker = picker
        startReview(against: profile, in: picker)
        render()
    }

    private func showReview(_ findings: ReviewFindings, source: (name: String, directory: any Directory, recorder: ChangeRecorder?),
                            target: (name: String, model: AppModel)) {
        guard let connections else { return }
        closePicker()
        let targetRecorder = target.model.recorder
        let lists = findings.lists.map { list, items in
            let onTarget = list != .onlyInSource
            let directory = ReviewListDirectory(findings: items, side: onTarget ? .target : .source,
                                                backing: onTarget ? target.model.connectionDirectory : source.directory)
            let model = connections.makeModel(ConnectionCatalog.Opened(directory: directory, label: list.title, bulkConcurrency: target.model.bulkConcurrency))
            // Writes are journalled under the connection they land on, as that session's are,
            // so U there (or here) can take them back.
            let recorder = onTarget ? targetRecorder : (source.recorder ?? ChangeRecorder(journal: targetRecorder.journal, connection: source.name))
            model.recorder = recorder
            return (list: list, count: items.count, model: model)
        }
        self.connections?.review = ReviewLists(title: "\(target.name) ⇐ \(source.name)", lists: lists)
        showReviewList(0)
    }

    /// `]` and `[` on a review's list: the next or previous of its four lists.
    func handleReviewKey(_ key: Key) -> Bool {
        guard let review = connections?.review, connections?.picker == nil, model.screens.count == 1, model.line == nil else { return false }
        switch key {
        case .character("]"): showReviewList((review.shown + 1) % review.lists.count)
        case .character("["): showReviewList((review.shown + review.lists.count - 1) % review.lists.count)
        default: return false
        }
        return true
    }

    private func showReviewList(_ index: Int) {
        guard var review = connections?.review else { return }
        if model.bulkRun?.isActive == true || model.runningImport != nil {
            model.showStatus("A bulk run is going on: let it finish or stop it (Esc) first", kind: .warning)
            return
        }
        review.shown = index
        let starts = review.started.insert(index).inserted
        connections?.review = review
        connections?.current = "review"
        let shown = review.lists[index]
        // The header: which review, which list of four, and the leavers' count always.
        let leavers = review.lists.first { $0.list == .leavers }?.count ?? 0
        let label = "Review \(review.title) · \(shown.list.title) (\(index + 1)/4 [ ]) · \(CountFormat.grouped(leavers)) \(leavers == 1 ? "leaver" : "leavers")"
        model = shown.model
        renderer = ScreenRenderer(presenter: Presenter(model: shown.model, serverLabel: label))
        invalidateNextFrame = true
        updateViewport()
        if starts { shown.model.start() }
        render()
    }
}

/// Both sides' latest progress, as one footer line: "hr 20,000 / 100,000 · 9,000/s · 9 s left".
@MainActor
final class ReviewMeter: Sendable {
    var progress: [ReviewSide.Position: WorkProgress] = [:]

    func line(source: String, target: String) -> String {
        func side(_ name: String, _ position: ReviewSide.Position) -> String {
            "\(name) \(progress[position]?.summary ?? "…")"
        }
        return "Reading " + side(source, .source) + "; " + side(target, .target)
    }
}
