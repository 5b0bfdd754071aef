import ArgumentParser
import Foundation
import RosterServer

/// `roster-server audit --since 1h`: who changed what, read from the database.
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Print the audit log: every change through the Roster API or SCIM, oldest first.",
        discussion: "Each line: time, token name, action, resource and id, (interface, client address and User-Agent, request id), and the fields before → after.")

    @Option(help: ArgumentHelp("Only changes in this last stretch of time: 30m, 12h, 7d, 2w.", valueName: "duration"))
    var since: String?

    @Option(help: ArgumentHelp("Only user or group changes.", valueName: "user|group"))
    var resource: String?

    @Option(help: ArgumentHelp("Only changes to the user or group with this id.", valueName: "id"))
    var id: String?

    @Option(help: ArgumentHelp("Only changes made with the token of this name (bootstrap for --token).", valueName: "name"))
    var token: String?

    @Option(help: ArgumentHelp("At most this many lines (the newest).", valueName: "N"))
    var limit = 1000

    @OptionGroup var options: DatabaseOption

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be at least 1.") }
        if let resource, !["user", "group"].contains(resource) { throw ValidationError("--resource must be user or group.") }
    }

    func run() async throws {
        let start: Date?
        do {
            start = try since.map { text throws(TokenError) in Date().addingTimeInterval(-(try AuditAdministration.duration(text))) }
        } catch {
            throw ValidationError(error.description)
        }
        let lines = try await AuditAdministration.lines(
            database: options.database, since: start, resource: resource, resourceID: id, token: token, limit: limit, logger: TokenCommand.logger)
        print(lines.isEmpty ? "No changes recorded\(since.map { " in the last \($0)" } ?? "")." : lines.joined(separator: "\n"))
    }
}
