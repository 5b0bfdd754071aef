import Foundation
import Logging
import RosterApp
import RosterCSV
import RosterJournal
import RosterKit

/// Runs Roster in the real terminal until the person quits or a signal ends it, and always
/// gives the terminal back.
@MainActor
public enum TerminalApp {
    public struct Options: Sendable {
        public var serverLabel: String
        public var pageSize: Int
        /// The order the first connection's list opens in (the `sort` setting).
        public var sort = UserSort.default
        public var colorMode: Terminal.ColorMode
        public var mouse: Bool
        public var scrollStyle: ScrollStyle
        /// Where a changed form is kept when a signal stops the app, and offered back from.
        public var draftFile: String?
        /// What a CSV export writes (the `exportColumns` setting).
        public var exportColumns: [CSVColumn]
        /// Where the import preview keeps the columns a person mapped (nil: nowhere).
        public var importMappingsFile: String?
        /// The header's colour: the connection's, from its profile.
        public var headerColor: Theme.Color?
        /// Requests a bulk run sends at once.
        public var bulkConcurrency = BulkRun.concurrency
        /// Where every write is journalled (nil: the settings turn the journal off, or it
        /// could not be opened), and the name the first connection's entries carry. Opened
        /// while the terminal is set up (2 ms of SQLite each), so the first frame waits for
        /// neither one after the other.
        public var journal: Task<ChangeJournal?, Never>?
        public var connectionName = ""
        /// How long the first frame waits for the first page (`AppController.start`).
        public var firstFrameGrace = Duration.milliseconds(40)
        /// `roster compare SOURCE TARGET` in a terminal: the profile the first connection (the
        /// target) is reviewed against at once, as Ctrl-R on it in the picker would.
        public var reviewSource: String?

        public init(
            serverLabel: String, pageSize: Int = UserQuery.defaultPerPage, colorMode: Terminal.ColorMode = .auto,
            mouse: Bool = true, scrollStyle: ScrollStyle = .halfScreen, draftFile: String? = nil,
            exportColumns: [CSVColumn] = CSVColumn.defaultSelection
        ) {
            self.draftFile = draftFile
            self.exportColumns = exportColumns
            self.serverLabel = serverLabel
            self.pageSize = pageSize
            self.colorMode = colorMode
            self.mouse = mouse
            self.scrollStyle = scrollStyle
        }
    }

    /// Returns the process's exit code: 0 after q or Ctrl-C, 128+N after signal N.
    /// Throws only when the terminal cannot be set up (no TTY).
    public static func run(
        directory: any Directory, options: Options, logger: Logger,
        connections: (catalog: ConnectionCatalog, current: String)? = nil
    ) async throws -> Int32 {
        let terminal = try Terminal.start(colorMode: options.colorMode, mouse: options.mouse, headerColor: options.headerColor)
        logger.info("terminal \(terminal.size.columns)x\(terminal.size.rows), colour \(terminal.usesColor)")
        let journal = await options.journal?.value
        let clipboard = TerminalClipboard(terminal: terminal)
        let makeModel = { (directory: any Directory, sort: UserSort, bulkConcurrency: Int, connection: String) in
            let model = AppModel(directory: directory, perPage: options.pageSize, sort: sort, scrollStyle: options.scrollStyle,
                                 clipboard: clipboard)
            model.recorder = ChangeRecorder(journal: journal, connection: connection)
            // An administrator's record of what a bulk run did, and how fast (make bench reads it).
            model.onBulkRunFinished = { run in logger.notice("\(run.logLine)") }
            model.exportColumns = options.exportColumns
            model.importMappings = options.importMappingsFile.flatMap { $0.isEmpty ? nil : ImportMappingStore(path: $0) }
            model.bulkConcurrency = bulkConcurrency
            return model
        }
        let model = makeModel(directory, options.sort, options.bulkConcurrency, options.connectionName)
        let controller = AppController(model: model, canvas: terminal.canvas, serverLabel: options.serverLabel) { [weak terminal] in
            terminal?.present()
        }
        if let connections {
            controller.enableConnections(connections.catalog, current: connections.current, label: options.serverLabel) { opened in
                logger.info("connection opened: \(opened.label)")
                return makeModel(opened.directory, opened.sort, opened.bulkConcurrency, opened.label)
            }
        }
        controller.start(firstFrameGrace: options.firstFrameGrace)
        model.offerInterruptedRuns()
        if let source = options.reviewSource { controller.startReview(named: source) }
        let draftFile = options.draftFile.map(DraftFile.init)
        if let draftFile, let draft = draftFile.read(logger: logger) {
            if draft.isOffered(on: options.connectionName) {
                model.offerRestore(draft) { _ in draftFile.remove() }
                controller.render()
            } else {
                // Another directory's user: kept on disk for a start on that connection.
                logger.notice("the unsaved draft of \(draft.label) belongs to another connection; kept for it")
            }
        }
        // Each wake-up is handled where MainLoop polled: a key is read, handled and drawn on
        // the main thread, with no thread between the terminal and the frame.
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            var finishedAlready = false
            terminal.onWake { wake in
                // Signals read together come one by one: none after the one that ended the app.
                guard !finishedAlready else { return }
                let events = terminal.events(for: wake)
                if events.contains(.suspend) {
                    terminal.suspend()
                }
                let keepGoing = controller.handle(events)
                if controller.invalidateNextFrame {
                    controller.invalidateNextFrame = false
                    terminal.invalidate()
                    controller.render()
                }
                if !keepGoing {
                    finishedAlready = true
                    terminal.restore()
                    finished.resume()
                }
            }
        }
        terminal.restore()
        for model in controller.openedModels {
            reportCutOff(model, logger: logger)
        }
        let shown = controller.model
        if shown.keepsDraftOnExit, var draft = shown.unsavedDraft, let draftFile {
            draft.connection = shown.recorder.connection
            draftFile.write(draft, logger: logger)
        }
        return controller.exitCode ?? 0
    }

    /// Says what a bulk run or an import was doing when the app was stopped under it.
    private static func reportCutOff(_ model: AppModel, logger: Logger) {
        if let run = model.bulkRun, run.isActive {
            // A signal (or a second Ctrl-C) cannot wait for the run: say where it was cut off.
            let progress = run.progress
            let line = "quit during a bulk run (\(run.action.progressive.lowercased())): \(progress.done) of \(progress.total) users done, "
                + "\(progress.total - progress.done) not sent"
            logger.notice("\(line)")
            FileHandle.standardError.write(Data("roster: \(line)\n".utf8))
        }
        if let running = model.runningImport {
            // Cut off (a signal, or Ctrl-C twice): what was done goes in the report all the same.
            running.writeReportBeforeExit()
            let line = "quit during an import: \(running.progress.done) of \(running.plan.validCount) rows answered; report: "
                + (running.reportPath ?? running.reportProblem ?? "not written")
            logger.notice("\(line)")
            FileHandle.standardError.write(Data("roster: \(line)\n".utf8))
        }
    }
}
