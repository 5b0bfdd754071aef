import RosterApp
import RosterKit

/// The named connections (profiles) the picker offers, and how to open and probe one. The
/// `roster` command fills it from the settings file; the TUI knows nothing of settings.
public struct ConnectionCatalog: Sendable {
    public struct Profile: Sendable, Equatable {
        public var name: String
        /// Where it connects, for the picker: never a secret.
        public var summary: String
        /// The header's colour while it is on screen.
        public var color: Theme.Color?
        public init(name: String, summary: String, color: Theme.Color?) {
            self.name = name
            self.summary = summary
            self.color = color
        }
    }

    /// A connection once opened: its directory, the header's label, its bulk run's width, the
    /// order its list opens in.
    public struct Opened: Sendable {
        public var directory: any Directory
        public var label: String
        public var bulkConcurrency: Int
        public var sort: UserSort
        public init(directory: any Directory, label: String, bulkConcurrency: Int, sort: UserSort = .default) {
            self.directory = directory
            self.label = label
            self.bulkConcurrency = bulkConcurrency
            self.sort = sort
        }
    }

    public var profiles: [Profile]
    /// Opens the named connection (starts what it needs). Called once a profile.
    public var open: @Sendable (String) async throws -> Opened
    /// A few words on the named connection's state now: reachable, dialect, user count.
    public var probe: @Sendable (String) async -> String

    public init(
        profiles: [Profile], open: @escaping @Sendable (String) async throws -> Opened,
        probe: @escaping @Sendable (String) async -> String
    ) {
        self.profiles = profiles
        self.open = open
        self.probe = probe
    }

    /// The probe every profile can share: one page of one user through the directory seam,
    /// which tells whether it answers, its dialect and (when the server counts) its users.
    public static func status(of directory: any Directory) async -> String {
        do {
            let page = try await directory.listUsers(UserQuery(page: 1, perPage: 1))
            let traits = await directory.traits()
            let dialect = traits.dialect.label
            let count = "\(page.totalIsLowerBound ? "≥ " : "")\(CountFormat.grouped(page.total)) users"
            return "✓ \(dialect) · \(count)"
        } catch let error as APIError {
            return "✗ " + ConnectionCatalog.short(error)
        } catch {
            return "✗ \(error)"
        }
    }

    /// An error in a few words, for a row of the picker.
    static func short(_ error: APIError) -> String {
        switch error.status {
        case nil: return error.errorDescription.map { String($0.prefix(48)) } ?? "unreachable"
        case 401, 403: return "token refused (\(error.status ?? 0))"
        case let status?: return "HTTP \(status)"
        }
    }
}
