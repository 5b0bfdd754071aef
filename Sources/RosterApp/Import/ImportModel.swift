import Observation
import RosterCSV
import RosterJournal
import RosterKit

/// Importing users from a CSV file: a preview of every row, checked and compared with the
/// directory before anything is sent (new users, users the file changes, rows that change
/// nothing); the columns it could not place mapped by hand (`m`), remembered per header set;
/// create only, update only or both (`c`); then the writes through the app's one `WorkRunner`
/// (a few at a time, one 429 hold, Esc after those in flight), each journalled in the import's
/// own run so the whole import can be undone; then a report of each row, next to the file.
///
/// Running the same file again changes nobody twice: the preview finds the users the last run
/// made (unchanged, not sent); a create carries a key derived from the file and the line, so a
/// create whose answer was lost is answered, when sent again, with the user it made instead of
/// making another (roster-server keeps keys 24 hours); an email someone took since the preview
/// is a 409, "already exists, skipped".
@MainActor
@Observable
public final class ImportModel {
    public enum Phase: Equatable, Sendable {
        /// Every row checked, nothing sent: Enter starts, Esc closes.
        case preview
        /// `m`: choosing each column's field.
        case mapping
        /// Enter with groups the directory lacks: create them, or import without them?
        case askingGroups
        case running
        /// Esc while running: the requests in flight finish, no new one starts.
        case stopping
        case finished
    }

    /// Where the comparison with the directory stands.
    public enum Comparison: Equatable, Sendable {
        /// A column to find users by is still to be mapped.
        case waitingForMapping
        case comparing
        case ready
        case failed(String)
    }

    /// Which rows the preview lists (Tab cycles).
    public enum Listing: String, CaseIterable, Sendable {
        case all, new, changed, unchanged, bad
    }

    /// One row to send, with what the comparison found.
    struct Item: Sendable {
        var row: ImportRow
        var verdict: ImportVerdict
    }

    typealias Runner = WorkRunner<Item, ImportOutcome>

    /// Writes in flight at once.
    public static var defaultConcurrency: Int { Runner.defaultConcurrency }

    public private(set) var plan: ImportPlan
    public private(set) var phase: Phase = .preview
    public private(set) var comparison: Comparison = .waitingForMapping
    /// Per good row's line, what it would do.
    public private(set) var verdicts: [Int: ImportVerdict] = [:]
    public private(set) var mode: ImportMode = .both
    public private(set) var listing: Listing = .all
    /// Groups the file names that the directory does not have (as the file spells them).
    public private(set) var missingGroups: [String] = []
    /// Requests the comparison took (the matching strategy is `ImportMatcher`'s).
    public private(set) var comparisonRequests = 0
    /// While mapping: the mapping being edited and the column the cursor is on.
    public private(set) var editedMapping: ImportMapping?
    public private(set) var mappingCursor = 0
    /// Why the file could not be read again with a new mapping, or a mapping not kept.
    public private(set) var mappingProblem: String?
    public var progress: WorkProgress { runner.progress }
    /// What became of each row sent or skipped, by line.
    public private(set) var outcomes: [Int: ImportOutcome] = [:]
    /// Where the report was written, once the run ends; or why it could not be.
    public private(set) var reportPath: String?
    public private(set) var reportProblem: String?
    /// The first row on screen, in the preview and the result.
    public private(set) var scrollOffset = 0
    /// Told when the run has ended and the report is written.
    @ObservationIgnored public var onFinish: (@MainActor (ImportModel) -> Void)?

    @ObservationIgnored private let directory: any Directory
    @ObservationIgnored private let recorder: ChangeRecorder
    @ObservationIgnored private let activity: Activity
    @ObservationIgnored private let mappings: ImportMappingStore?
    @ObservationIgnored private var runner: Runner
    @ObservationIgnored private let concurrency: Int
    @ObservationIgnored private var work: TrackedTask?
    @ObservationIgnored private var comparing: TrackedTask?
    /// Groups by lower-case name, as found or created.
    @ObservationIgnored private var groupsByName: [String: GroupReference] = [:]
    @ObservationIgnored private var createsMissingGroups = false
    /// Lines whose write is on its way: if Roster quits now, their outcome is not known.
    @ObservationIgnored private var inFlightLines = Set<Int>()

    init(plan: ImportPlan, directory: any Directory, activity: Activity, concurrency: Int = ImportModel.defaultConcurrency,
         recorder: ChangeRecorder = .none, mappings: ImportMappingStore? = nil) {
        self.recorder = recorder
        self.plan = plan
        self.directory = directory
        self.activity = activity
        self.mappings = mappings
        self.concurrency = concurrency
        runner = Runner(progress: WorkProgress(total: 0), concurrency: concurrency, activity: activity)
        listedRows = plan.rows
    }

    // MARK: What the view reads

    /// The preview's three counts, and the new rows that can be created (they have a name),
    /// counted once per comparison: the screen reads them on every frame, of up to 100,000 rows.
    public private(set) var newCount = 0
    public private(set) var changedCount = 0
    public private(set) var unchangedCount = 0
    private var creatableCount = 0
    /// Rows the chosen mode sends.
    public var toSendCount: Int { (mode.creates ? creatableCount : 0) + (mode.updates ? changedCount : 0) }

    public var createdCount: Int { outcomes.values.count { if case .created = $0.kind { true } else { false } } }
    public var updatedCount: Int { outcomes.values.count { if case .updated = $0.kind { true } else { false } } }
    public var existingCount: Int { outcomes.values.count { if case .alreadyExists = $0.kind { true } else { false } } }
    public var failedCount: Int { outcomes.values.count { if case .failed = $0.kind { true } else { false } } }
    /// Rows to send that were not, because the run was stopped.
    public private(set) var notSentCount = 0

    /// The rows the preview lists, as `listing` says (kept, not worked out on every frame).
    public private(set) var listedRows: [ImportRow] = []

    private func relist() {
        listedRows = switch listing {
        case .all: plan.rows
        case .bad: plan.badRows
        case .new: plan.rows.filter { verdicts[$0.line] == .new }
        case .changed: plan.rows.filter { if case .changed = verdicts[$0.line] { true } else { false } }
        case .unchanged: plan.rows.filter { if case .unchanged = verdicts[$0.line] { true } else { false } }
        }
    }

    /// The counts and the list, after the verdicts or the rows changed.
    private func recount() {
        newCount = 0
        changedCount = 0
        unchangedCount = 0
        creatableCount = 0
        for row in plan.rows {
            switch verdicts[row.line] {
            case .new?:
                newCount += 1
                if row.draft != nil { creatableCount += 1 }
            case .changed?: changedCount += 1
            case .unchanged?: unchangedCount += 1
            case nil: break
            }
        }
        relist()
    }

    /// Every row's outcome for the report: bad rows, what was done, and what was not sent.
    public var report: [ImportOutcome] {
        plan.rows.map { row in
            if let problem = row.problem { return ImportOutcome(line: row.line, email: row.email, kind: .invalid(reason: problem)) }
            if let outcome = outcomes[row.line] { return outcome }
            if inFlightLines.contains(row.line) { return ImportOutcome(line: row.line, email: row.email, kind: .unanswered) }
            switch verdicts[row.line] {
            case .unchanged(let user): return ImportOutcome(line: row.line, email: row.email, kind: .unchanged(id: user.id))
            case .changed(let user, _, _) where !mode.updates:
                return ImportOutcome(line: row.line, email: row.email, kind: .alreadyExists(id: user.id))
            case .new where !mode.creates: return ImportOutcome(line: row.line, email: row.email, kind: .skipped(reason: "new user; update only"))
            case .new where row.draft == nil: return ImportOutcome(line: row.line, email: row.email, kind: .invalid(reason: "new user without a name or email"))
            default: return ImportOutcome(line: row.line, email: row.email, kind: .notSent)
            }
        }
    }

    public var isRunning: Bool { phase == .running || phase == .stopping }

    // MARK: Scrolling the rows

    /// How many rows the view shows: set by the view as it draws (not observed: it is the
    /// view's own measure, and setting it must not ask for another frame).
    @ObservationIgnored public var visibleRowCount = 10

    public func scroll(by rows: Int) {
        if phase == .mapping {
            guard let editedMapping else { return }
            mappingCursor = min(max(0, mappingCursor + rows), max(0, editedMapping.headers.count - 1))
            return
        }
        let limit = max(0, listedRows.count - max(1, visibleRowCount))
        let offset = min(max(0, scrollOffset + rows), limit)
        if offset != scrollOffset { scrollOffset = offset }
    }

    /// Tab: the next list (all, new, changed, unchanged, bad).
    public func nextListing() {
        let all = Listing.allCases
        listing = all[(all.firstIndex(of: listing)! + 1) % all.count]
        scrollOffset = 0
        relist()
    }

    /// `c`: create only, update only, both.
    public func nextMode() {
        guard phase == .preview else { return }
        mode = mode.next
    }

    // MARK: Comparing with the directory

    /// Looks up the users the rows name and the groups the file names; the preview's three
    /// lists follow. Called when the preview opens and after each mapping.
    public func compare() {
        comparing?.cancel()
        verdicts = [:]
        missingGroups = []
        recount()
        guard plan.mapping.missing == nil else {
            comparison = .waitingForMapping
            return
        }
        comparison = .comparing
        comparisonNumber += 1
        let number = comparisonNumber
        let rows = plan.rows
        let directory = self.directory
        comparing = activity.startLoad { [weak self] in
            do {
                let matched = try await ImportMatcher(directory: directory).match(rows)
                // After the first list: a SCIM service's traits name its attributes once its schemas are read.
                let traits = await directory.traits()
                let groups = try await Self.findGroups(named: rows, in: directory, traits: traits)
                self?.compared(number, users: matched.users, groups: groups, requests: matched.requests + groups.requests, traits: traits)
            } catch {
                guard let shown = APIError.shown(for: error) else { return }
                self?.comparison = .failed(shown.reason)
            }
        }
    }

    /// Counts the comparisons started: only the latest one's answer is used.
    @ObservationIgnored private var comparisonNumber = 0

    private func compared(_ number: Int, users: [Int: User], groups: (found: [String: GroupReference], missing: [String], requests: Int),
                          requests: Int, traits: DirectoryTraits) {
        guard number == comparisonNumber else { return }
        if traits.attributes != plan.mapping.attributes {
            // The file was read before the directory said which attributes it has: read it
            // again with them placed (the rows' lines, and so the matches, stay the same).
            do {
                plan = try ImportFileReader.read(path: plan.path, mapping: plan.mapping.placing(attributes: traits.attributes))
            } catch {
                comparison = .failed(error.description)
                return
            }
        }
        var verdicts: [Int: ImportVerdict] = [:]
        for index in plan.rows.indices where plan.rows[index].isValid {
            if !traits.hasRoles { plan.rows[index].role = nil }
            if let status = plan.rows[index].status, !traits.statuses.contains(status) {
                plan.rows[index].problem = "status \(status.rawValue) is not one this directory has"
                continue
            }
            verdicts[plan.rows[index].line] = ImportVerdict.of(plan.rows[index], existing: users[plan.rows[index].line])
        }
        self.verdicts = verdicts
        recount()
        groupsByName = groups.found
        missingGroups = groups.missing
        comparisonRequests = requests
        comparison = .ready
    }

    /// Each group the file names, looked up once by name: found, or missing.
    nonisolated private static func findGroups(named rows: [ImportRow], in directory: any Directory, traits: DirectoryTraits) async throws
        -> (found: [String: GroupReference], missing: [String], requests: Int) {
        var names: [String: String] = [:]
        for row in rows where row.isValid { for name in row.groups ?? [] where names[name.lowercased()] == nil { names[name.lowercased()] = name } }
        guard !names.isEmpty else { return ([:], [], 0) }
        guard traits.hasGroups else { return ([:], names.values.sorted(), 0) }
        var found: [String: GroupReference] = [:]
        var requests = 0
        for (lower, name) in names {
            requests += 1
            if let group = try await directory.groups(named: name, limit: 50).first(where: { $0.name.lowercased() == lower }) {
                found[lower] = group
            }
        }
        return (found, names.filter { found[$0.key] == nil }.map(\.value).sorted(), requests)
    }

    // MARK: Mapping by hand

    /// `m`: shows each column with its field; j/k choose a column, h/l (←/→) its field.
    public func startMapping() {
        guard phase == .preview else { return }
        editedMapping = plan.mapping
        mappingCursor = plan.mapping.headers.indices.first { plan.mapping.fields[$0] == nil } ?? 0
        mappingProblem = nil
        phase = .mapping
    }

    /// The field choices in the order h/l go through them: ignored first, then the fields and
    /// the profile attributes this directory has.
    public var fieldChoices: [ImportField?] { [nil] + (editedMapping ?? plan.mapping).choices.map(Optional.some) }

    /// Sets the field of the column under the cursor (nil: ignored).
    public func setField(_ field: ImportField?) {
        guard phase == .mapping, var mapping = editedMapping else { return }
        mapping.assign(field, toColumn: mappingCursor)
        editedMapping = mapping
    }

    /// h/l: the previous or next field for the column under the cursor, skipping those
    /// another column has (a field is on one column at most).
    public func cycleField(by step: Int) {
        guard phase == .mapping, let mapping = editedMapping, mapping.fields.indices.contains(mappingCursor) else { return }
        let choices = fieldChoices
        var index = choices.firstIndex(of: mapping.fields[mappingCursor]) ?? 0
        repeat {
            index = (index + step + choices.count) % choices.count
        } while choices[index].map { field in mapping.column(of: field).map { $0 != mappingCursor } ?? false } ?? false
        setField(choices[index])
    }

    /// Enter: reads the file again with the mapping, keeps it for this header set, and compares.
    public func finishMapping() {
        guard phase == .mapping, let mapping = editedMapping else { return }
        editedMapping = nil
        phase = .preview
        guard mapping != plan.mapping else { return }
        do {
            plan = try ImportFileReader.read(path: plan.path, mapping: mapping)
        } catch {
            mappingProblem = error.description
            return
        }
        do { try mappings?.remember(mapping) } catch { mappingProblem = error.description }
        scrollOffset = 0
        compare()
    }

    /// Esc while mapping: the mapping as it was.
    public func cancelMapping() {
        guard phase == .mapping else { return }
        editedMapping = nil
        phase = .preview
    }

    // MARK: Running

    /// The item a row is in the chosen mode, if it is sent at all.
    private func item(for row: ImportRow) -> Item? {
        guard row.isValid, let verdict = verdicts[row.line] else { return nil }
        switch verdict {
        case .new: return mode.creates && row.draft != nil ? Item(row: row, verdict: verdict) : nil
        case .changed: return mode.updates ? Item(row: row, verdict: verdict) : nil
        case .unchanged: return nil
        }
    }

    /// Enter on the preview: asks about missing groups first, then sends.
    public func start() {
        guard phase == .preview, comparison == .ready else { return }
        let items = plan.rows.compactMap(item(for:))
        guard !items.isEmpty else { return }
        if !neededMissingGroups(items).isEmpty {
            phase = .askingGroups
            return
        }
        run(items)
    }

    /// The answer to "create the missing groups?": yes, no (import without them), nil (back).
    public func answerGroups(create: Bool?) {
        guard phase == .askingGroups else { return }
        guard let create else {
            phase = .preview
            return
        }
        createsMissingGroups = create
        run(plan.rows.compactMap(item(for:)))
    }

    /// The missing groups the rows to send name.
    private func neededMissingGroups(_ items: [Item]) -> [String] {
        let named = Set(items.flatMap { ($0.row.groups ?? []).map { $0.lowercased() } })
        return missingGroups.filter { named.contains($0.lowercased()) }
    }

    private func run(_ items: [Item]) {
        phase = .running
        runner = Runner(progress: WorkProgress(total: items.count), concurrency: concurrency, activity: activity)
        let toCreate = createsMissingGroups ? neededMissingGroups(items) : []
        work = activity.startLoad { [weak self] in
            await self?.send(items, creatingGroups: toCreate)
        }
    }

    private func send(_ items: [Item], creatingGroups toCreate: [String]) async {
        let directory = self.directory
        let plan = self.plan
        let recorder = self.recorder
        let name = plan.path.split(separator: "/").last.map(String.init) ?? plan.path
        let runID = await runner.openJournalRun(recorder, what: "Importing \(name)", count: items.count + toCreate.count, plan: nil, undoes: nil)
        for group in toCreate {
            let write = ChangeRecorder.Write(kind: .group, objectID: "", label: group, action: .createGroup)
            if let made = try? await recorder.record(write, run: runID, landed: { (.group($0), $0.id) }, {
                try await directory.createGroup(GroupDraft(name: group), idempotencyKey: plan.idempotencyKey(forGroup: group))
            }) {
                groupsByName[group.lowercased()] = made.reference
            }
        }
        let groups = groupsByName
        await runner.run(items, perform: { item in
            await Self.send(item, plan: plan, groups: groups, to: directory, recorder: recorder, runID: runID)
        }, giveUp: { item, error in
            ImportOutcome(line: item.row.line, email: item.row.email, kind: .failed(reason: error.reason))
        }, willSend: { [weak self] item in
            self?.inFlightLines.insert(item.row.line)
        }, record: { [weak self] item, step in
            guard let self else { return }
            inFlightLines.remove(item.row.line)
            switch step {
            case .changed(let outcome), .unchanged(let outcome), .failed(let outcome): outcomes[item.row.line] = outcome
            case .rateLimited, .cancelled: break
            }
        })
        notSentCount = items.count { outcomes[$0.row.line] == nil }
        finish()
    }

    /// Esc while running: no new request starts; those in flight finish and are reported.
    public func stop() {
        guard phase == .running else { return }
        phase = .stopping
        runner.stop()
    }

    /// A key: no new write starts for a moment (`WorkRunner.keysPressed`).
    public func keysPressed() {
        if phase == .running { runner.keysPressed() }
    }

    private func finish() {
        guard phase != .finished else { return }
        phase = .finished
        work = nil
        writeReport()
        onFinish?(self)
    }

    /// Roster is going away mid-run (a signal, or Ctrl-C twice): the report is written now,
    /// with the rows in flight as sent but unanswered, so what was done is not lost.
    public func writeReportBeforeExit() {
        guard isRunning else { return }
        phase = .finished
        work?.cancel()
        work = nil
        writeReport()
    }

    private func writeReport() {
        do {
            reportPath = try ImportReport.write(report, nextTo: plan.path)
        } catch {
            reportProblem = error.description
        }
    }
}

extension APIError {
    /// The sentence for the report, with the field errors a 422 names.
    var reason: String {
        let fields = fieldErrors.map { "\($0.field): \($0.message)" }.joined(separator: "; ")
        let sentence = errorDescription ?? "It failed."
        return fields.isEmpty ? sentence : "\(sentence) \(fields)"
    }
}
