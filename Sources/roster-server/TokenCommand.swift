import ArgumentParser
import Foundation
import Logging
import RosterServer

/// `roster-server token …`: named tokens with scopes, kept (hashed) in the server's database.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Create, list and revoke named tokens with scopes (read, write, scim, admin).",
        discussion: """
            Tokens live in the database, hashed: a token is shown once, when it is created. \
            Every roster-server on the same database refuses a revoked or expired token within \
            a second, without a restart. --token (ROSTER_TOKEN) stays the bootstrap token with every scope.
            """,
        subcommands: [Create.self, List.self, Revoke.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a token and print it, the only time it is shown.")

        @Argument(help: "The token's name, as the log shows it (letters, digits, . - _ @).")
        var name: String

        @Option(help: ArgumentHelp("Comma-separated scopes: read, write, scim, admin.", valueName: "scopes"))
        var scope: String

        @Option(help: ArgumentHelp("Refuse the token after this long: 30m, 12h, 90d, 2w. Without it the token does not expire.", valueName: "lifetime"))
        var expires: String?

        @OptionGroup var options: DatabaseOption

        func run() async throws {
            let scopes: Set<TokenScope>
            let lifetime: TimeInterval?
            do {
                scopes = try TokenScope.parseList(scope)
                lifetime = try expires.map { text throws(TokenError) in try TokenAdministration.lifetime(text) }
            } catch {
                throw ValidationError(error.description)
            }
            let made = try await TokenAdministration.create(
                database: options.database, name: name, scopes: scopes, lifetime: lifetime, logger: TokenCommand.logger)
            var lines = ["token: \(made.secret)", "name: \(made.record.name)", "scopes: \(TokenScope.list(made.record.scopes))"]
            if let expiresAt = made.record.expiresAt { lines.append("expires: \(TokenCommand.format(expiresAt))") }
            lines.append("This is the only time the token is shown; keep it in a secret store.")
            print(lines.joined(separator: "\n"))
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show every token's name, scopes, times and state; never a secret.")

        @OptionGroup var options: DatabaseOption

        func run() async throws {
            let tokens = try await TokenAdministration.list(database: options.database, logger: TokenCommand.logger)
            guard !tokens.isEmpty else {
                print("No named tokens; roster-server token create NAME --scope read makes one.")
                return
            }
            let now = Date()
            let rows = [["NAME", "SCOPES", "CREATED", "LAST USED", "EXPIRES", "STATE"]] + tokens.map { token in
                let state = token.revokedAt.map { "revoked \(TokenCommand.format($0))" }
                    ?? (token.expiresAt.map { $0 <= now } == true ? "expired" : "live")
                return [token.name, TokenScope.list(token.scopes), TokenCommand.format(token.createdAt),
                        token.lastUsedAt.map(TokenCommand.format) ?? "never", token.expiresAt.map(TokenCommand.format) ?? "never", state]
            }
            let widths = (0..<6).map { column in rows.map { $0[column].count }.max() ?? 0 }
            for row in rows {
                print(zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                    .trimmingCharacters(in: .whitespaces))
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Refuse a token from now on, on every server on the database.")

        @Argument(help: "The token's name.")
        var name: String

        @OptionGroup var options: DatabaseOption

        func run() async throws {
            try await TokenAdministration.revoke(database: options.database, name: name, logger: TokenCommand.logger)
            print("revoked: \(name)")
        }
    }

    /// Database notes go to standard error at warning and above only.
    static var logger: Logger {
        var logger = Logger(label: "roster.server.token") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .warning
        return logger
    }

    static func format(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }
}
