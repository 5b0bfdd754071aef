import Foundation

/// A run of many writes (a bulk run, an import, an undo): its entries carry its id.
public struct JournalRun: Sendable, Equatable, Identifiable {
    public enum State: String, Sendable, Codable, CaseIterable {
        case running
        case done
        /// Esc stopped it: the rest was not sent.
        case stopped
        /// The app went away mid-run (a crash, SIGKILL): found so at the next start.
        case interrupted
    }

    public var id: String
    public var startedAt: Date
    public var endedAt: Date?
    public var connection: String
    /// What it did, as the progress line says it: "Suspending", "Importing people.csv".
    public var what: String
    /// Users (or rows) it was asked to do.
    public var count: Int
    public var state: State
    /// The run this one took back, when it was an undo.
    public var undoes: String?
    /// The process that ran it: a `running` run whose process is gone was interrupted.
    public var processID: Int32
    /// What finishing an interrupted run would do, where it can be said without secrets
    /// (`JournalPlan`); nil when it cannot be finished (a password reset, an import).
    public var plan: JournalPlan?

    public init(
        id: String = UUID().uuidString, startedAt: Date = Date(), endedAt: Date? = nil, connection: String, what: String, count: Int,
        state: State = .running, undoes: String? = nil, processID: Int32 = getpid(), plan: JournalPlan? = nil
    ) {
        self.id = id
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.connection = connection
        self.what = what
        self.count = count
        self.state = state
        self.undoes = undoes
        self.processID = processID
        self.plan = plan
    }
}

/// What a bulk run was asked to do, kept so an interrupted one can be finished: the action (as
/// a string the app's `BulkAction` reads back) and every user it was for.
public struct JournalPlan: Sendable, Equatable, Codable {
    public var action: String
    public var userIDs: [String]

    public init(action: String, userIDs: [String]) {
        self.action = action
        self.userIDs = userIDs
    }
}
