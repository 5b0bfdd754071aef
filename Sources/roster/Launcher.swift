import Foundation
import Logging
import RosterApp
import RosterKit
import RosterServer
import RosterTUI

/// Starts what `roster` needs (logging, the embedded server when no server is named, the API
/// client), runs the terminal UI, and stops it all again.
struct Launcher {
    let settings: Settings
    /// Lines for the log written before it was open (the files `PrivateFiles` tightened).
    var notes: [String] = []

    func run() async throws -> Int32 {
        let sink: FileLogHandler.Sink
        do {
            sink = try FileLogHandler.Sink(path: settings.logFile)
        } catch {
            throw LaunchError("Cannot write the log file \(settings.logFile): \(error.localizedDescription). Set logFile in the configuration.")
        }
        let level = settings.logLevel
        let makeLogger = { (label: String) in
            Logger(label: label) { label in FileLogHandler(label: label, sink: sink, logLevel: level) }
        }
        let logger = makeLogger("roster")
        logger.info("roster \(RosterVersion.current) starting")
        for note in notes { logger.notice("\(note)") }

        var embedded: RunningServer?
        let baseURL: URL
        let tokens: TokenProvider?
        let serverLabel: String
        if let server = settings.server {
            baseURL = server
            tokens = settings.token.map(TokenProvider.init)
            serverLabel = Redaction.url(server) // the header adds the dialect once it is known
        } else {
            let configuration = ServerConfiguration(
                databasePath: settings.database, seedCount: settings.seedUsers,
                faults: FaultInjection(failRate: settings.demoFaults))
            let server: RunningServer
            do {
                server = try await UserAPIServer.start(configuration, logger: makeLogger("roster.server"))
            } catch {
                throw LaunchError("Could not start the embedded server on \(settings.database): \(error)")
            }
            logger.info("embedded server listening on \(server.url.absoluteString), database \(settings.database)")
            embedded = server
            baseURL = server.url
            tokens = TokenProvider(.literal(server.token, origin: "the embedded server"))
            serverLabel = "embedded \(server.url.host ?? "127.0.0.1"):\(server.url.port ?? 0)"
        }

        let transport: AsyncHTTPTransport
        do {
            transport = try AsyncHTTPTransport(options: settings.transportOptions(environment: ProcessInfo.processInfo.environment))
        } catch {
            await embedded?.shutdown()
            throw LaunchError(error.localizedDescription)
        }
        let client = APIClient(
            baseURL: baseURL, tokens: tokens, transport: transport,
            deadline: settings.requestTimeout, logger: makeLogger("roster.client"))
        // The header names the connection: its profile first, as admins tell them apart by name.
        let label = settings.profile.map { "\($0) · \(serverLabel)" } ?? serverLabel
        var options = TerminalApp.Options(
            serverLabel: label, pageSize: settings.pageSize, colorMode: settings.colors, mouse: settings.mouse,
            scrollStyle: settings.scrolling, draftFile: settings.draftFile, exportColumns: settings.exportColumns)
        // The embedded server's work runs on this machine's cores, beside the keys: a bulk run
        // sends it two requests at a time, not four (make bench: j's median during a run of
        // 1,000 fell from 1.69 to 1.27 ms, the run's rate from 654 to 528 users a second).
        if embedded != nil { options.bulkConcurrency = 2 }
        options.headerColor = settings.color
        let exitCode: Int32
        do {
            let directory = RemoteDirectory(client: client, choice: embedded != nil ? .roster : settings.api)
            exitCode = try await TerminalApp.run(directory: directory, options: options, logger: logger)
        } catch {
            await transport.shutdown(waitingAtMost: .milliseconds(250))
            await embedded?.shutdown()
            throw LaunchError("\(error)")
        }
        logger.info("roster stopping (exit \(exitCode))")
        await transport.shutdown(waitingAtMost: .milliseconds(250))
        await embedded?.shutdown()
        return exitCode
    }
}

struct LaunchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
