import Foundation
import Logging
import RosterApp
import RosterJournal
import RosterKit
import RosterServer
import RosterTUI

/// Starts what `roster` needs (logging, the embedded server when no server is named, the API
/// client), runs the terminal UI, and stops it all again.
struct Launcher {
    let settings: Settings
    /// Lines for the log written before it was open (the files `PrivateFiles` tightened).
    var notes: [String] = []
    /// The settings file and flags the profiles come from, for the `C` picker.
    var profilesFile: SettingsFile?
    var flags = Settings.Flags()
    /// `roster compare SOURCE TARGET` in a terminal: the profile to review the first connection against.
    var reviewSource: String?

    func run() async throws -> Int32 {
        // Before anything starts (a server, a password prompt): a terminal Roster cannot draw
        // on is said in one line, and the terminal is left as it was.
        do { try await Terminal.checkUsable() } catch { throw LaunchError("\(error)") }
        let sink: FileLogHandler.Sink
        do {
            sink = try FileLogHandler.Sink(path: settings.logFile)
        } catch {
            throw LaunchError("Cannot write the log file \(settings.logFile): \(error.localizedDescription). Set logFile in the configuration.")
        }
        let level = settings.logLevel
        let makeLogger: @Sendable (String) -> Logger = { label in
            Logger(label: label) { label in FileLogHandler(label: label, sink: sink, logLevel: level) }
        }
        let logger = makeLogger("roster")
        logger.info("roster \(RosterVersion.current) starting")
        for note in notes { logger.notice("\(note)") }

        let environment = ProcessInfo.processInfo.environment
        let opener = ConnectionOpener(environment: environment, makeLogger: makeLogger)
        let first: ConnectionOpener.Opened
        do { first = try await opener.open(settings, mayPrompt: true) } catch {
            await opener.shutdown()
            throw error
        }
        // The first page goes out now, while the journal and the terminal are set up.
        await first.directory.prefetchUsers(UserQuery(perPage: settings.pageSize, sort: settings.sort))
        var options = TerminalApp.Options(
            serverLabel: first.label, pageSize: settings.pageSize, colorMode: settings.colors, mouse: settings.mouse,
            scrollStyle: settings.scrolling, draftFile: settings.draftFile, exportColumns: settings.exportColumns)
        // The embedded server's work runs on this machine's cores, beside the keys: a bulk run
        // sends it two requests at a time, not four (make bench: j's median during a run of
        // 1,000 fell from 1.69 to 1.27 ms, the run's rate from 654 to 528 users a second).
        if first.isEmbedded { options.bulkConcurrency = 2 }
        options.sort = settings.sort
        options.headerColor = settings.color
        options.importMappingsFile = settings.importMappingsFile
        let settings = settings
        options.journal = Task.detached { settings.journalFile.flatMap { Self.openJournal($0, settings: settings, logger: logger) } }
        // A name that stays the same from one start to the next (the embedded server's port
        // does not), so an interrupted run is offered again on the same connection.
        options.connectionName = settings.profile ?? settings.server?.absoluteString ?? "embedded \(settings.database)"
        options.reviewSource = reviewSource
        let exitCode: Int32
        do {
            exitCode = try await TerminalApp.run(
                directory: first.directory, options: options, logger: logger,
                connections: catalog(opener: opener).map { ($0, settings.profile ?? "") })
        } catch {
            await opener.shutdown()
            throw LaunchError("\(error)")
        }
        logger.info("roster stopping (exit \(exitCode))")
        await opener.shutdown()
        return exitCode
    }

    /// The change journal, pruned in the background to the settings' days and entries. One
    /// that cannot be opened is logged and the app goes on without it: U says so.
    private static func openJournal(_ path: String, settings: Settings, logger: Logger) -> ChangeJournal? {
        let journal: ChangeJournal
        do {
            journal = try ChangeJournal(path: path)
        } catch {
            logger.error("the change journal \(path) cannot be opened, so nothing is journalled and U cannot undo: \(error)")
            return nil
        }
        let cutoff = Date().addingTimeInterval(-Double(settings.journalDays) * 86_400)
        let maximum = settings.journalEntries
        let days = settings.journalDays
        Task.detached(priority: .background) {
            do {
                let removed = try await journal.prune(before: cutoff, maximumEntries: maximum)
                if removed > 0 { logger.info("journal: pruned \(removed) entries (older than \(days) days or beyond \(maximum))") }
            } catch {
                logger.error("journal: pruning failed: \(error)")
            }
        }
        return journal
    }

    /// The `C` picker's profiles, when the settings file has any and one of them is open as
    /// the file says.
    private func catalog(opener: ConnectionOpener) -> ConnectionCatalog? {
        let environment = ProcessInfo.processInfo.environment
        guard settings.profile != nil, let file = profilesFile, !file.connections.isEmpty else { return nil }
        // A server named by flag or environment is not the profile's connection: no picker,
        // rather than one whose "current" row names a directory that is not on screen.
        guard flags.server == nil, environment["ROSTER_SERVER"].nonEmpty == nil else { return nil }
        let each = Profiles(file: file, flags: flags, environment: environment).each()
        let resolved = Dictionary(uniqueKeysWithValues: each.map { ($0.name, $0.settings) })
        let profiles = each.map { name, result in
            let settings = try? result.get()
            return ConnectionCatalog.Profile(name: name, summary: settings?.connectionSummary ?? "", color: settings?.color)
        }
        return ConnectionCatalog(
            profiles: profiles,
            open: { name in
                let settings: Settings
                switch resolved[name] {
                case .success(let resolved)?: settings = resolved
                case .failure(let error)?: throw LaunchError(error.message)
                case nil: throw LaunchError("There is no profile \(name).")
                }
                let opened = try await opener.open(settings)
                return ConnectionCatalog.Opened(directory: opened.directory, label: opened.label,
                                                bulkConcurrency: opened.isEmbedded ? 2 : BulkRun.concurrency, sort: settings.sort)
            },
            probe: { name in
                await opener.probe(name, settings: resolved[name] ?? .failure(SettingsError("no profile \(name)")))
            })
    }
}

struct LaunchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
