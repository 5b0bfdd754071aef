import Foundation
import NIOConcurrencyHelpers
import RosterKit
import RosterKitTestSupport
import Testing

/// The database under the server failing, not the server: roster-server on PostgreSQL, the
/// cluster restarted as after a crash in the middle of a bulk run.
extension ChaosTests {
    @Test func theDatabaseRestartedUnderABulkRunWritesEachUserOnce() async throws {
        let cluster = try PostgresCluster()
        defer { cluster.stop() }
        let server = try await ServerProcess(seed: 300, database: cluster.url, extraArguments: ["--latency", "60"])
        defer { server.stop() }
        let before = try await server.repository.listUsers(UserQuery(perPage: 50)).items
        let session = try RosterSession(server: server)
        try await session.suspendFiftyUntilAFifthIsDone()
        // Every connection of the server's pool is cut, writes in flight among them; the
        // database is back (crash recovery done) when `restart` returns.
        let cut = Date()
        try cluster.restart()
        let back = Date()

        let retries = try await session.finishTheRunRetryingFailures()
        #expect(server.isRunning, "roster-server outlived its database's restart")

        var written = 0
        var times: [Date] = []
        for user in before {
            #expect(try await server.repository.user(id: user.id).status == .suspended, "\(user.name) is suspended")
            let writes = try await server.repository.history(ofUser: user.id).filter { $0.action == "update" }
            // Once each, but not those the seed made suspended already.
            let wanted = user.status == .suspended ? 0 : 1
            #expect(writes.count == wanted, "\(user.name) written \(writes.count) times, not \(wanted)")
            written += writes.count
            times += writes.map(\.at)
        }
        // The run went on through the restart: writes before it and after it.
        #expect(times.contains { $0 < cut } && times.contains { $0 > back }, "the restart fell mid-run")
        #expect(written == before.filter { $0.status != .suspended }.count)
        #expect(try await server.repository.listUsers(UserQuery(perPage: 1)).total == 300, "no user added or lost")

        // The tally of the run and of each retry (the log's "bulk run finished" lines): the
        // users it says it changed are the writes the server holds, and each user is counted.
        let tallies = try BulkTally.read(from: server.directory.appendingPathComponent("state/roster/roster.log"))
        #expect(tallies.count == retries + 1, "a line for the run and each retry: \(tallies)")
        #expect(tallies.map(\.changed).reduce(0, +) == written, "\(tallies)")
        #expect(tallies.first?.total == 50)
        #expect(tallies.last?.failed == 0, "\(tallies)")
        let log = try String(contentsOf: server.directory.appendingPathComponent("state/roster/roster.log"), encoding: .utf8)
        let resent = log.split(separator: "\n").filter { $0.contains("retrying PUT") }.count
        print("database restart under a bulk run: down \(Int(back.timeIntervalSince(cut) * 1000)) ms, \(resent) PUTs resent by the client, "
            + "\(times.filter { $0 < cut }.count) writes before and \(times.filter { $0 > back }.count) after, \(retries) retries with r; tallies \(tallies)")
    }
}

/// What one "bulk run finished: suspending, 50 of 50 users (48 changed, 0 already suspended, 2
/// failed, 0 not started), …" line of roster's log says (`BulkRun.logLine`).
struct BulkTally: CustomStringConvertible {
    var total: Int
    var changed: Int
    var unchanged: Int
    var failed: Int

    var description: String { "\(changed) changed, \(unchanged) unchanged, \(failed) failed of \(total)" }

    static func read(from log: URL) throws -> [BulkTally] {
        let pattern = #/bulk run finished: [^,]+, \d+ of (\d+) users \((\d+) changed, (\d+) [^,]+, (\d+) failed/#
        return try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap { line in
            guard let match = try pattern.firstMatch(in: line) else { return nil }
            return BulkTally(total: Int(match.1) ?? -1, changed: Int(match.2) ?? -1, unchanged: Int(match.3) ?? -1, failed: Int(match.4) ?? -1)
        }
    }
}

extension ChaosTests {
    /// PostgreSQL restarted again and again under a dozen clients (the way roster-server's pool
    /// once stranded requests for good, and a stranded request then held its SIGTERM forever).
    @Test func theDatabaseRestartedAgainAndAgainLeavesNoRequestUnansweredAndTheServerStops() async throws {
        let cluster = try PostgresCluster()
        defer { cluster.stop() }
        let server = try await ServerProcess(seed: 300, database: cluster.url, extraArguments: ["--latency", "20"])
        defer { server.stop() }
        let users = try await server.repository.listUsers(UserQuery(perPage: 100)).items
        let load = RequestLoad(server: server, users: users)
        let clients = Task { try await load.run(clients: 12) }
        defer { load.stop() }
        for _ in 0..<15 {
            try await Task.sleep(for: .milliseconds(1200))
            try cluster.restart()
        }
        try await Task.sleep(for: .seconds(2))
        load.stop()
        let outcome = try await clients.value

        print("database restarted 15 times under 12 clients: \(outcome)")
        #expect(outcome.unanswered.isEmpty, "requests with no answer: \(outcome.unanswered); \(server.stateForMessages)")
        #expect(Set(outcome.statuses.keys).isSubset(of: [200, 503]), "only answers or 503s: \(outcome.statuses)")
        #expect(outcome.slowest < .seconds(20), "a request waits at most its database deadline (15 s)")
        #expect(outcome.statuses[200, default: 0] > 100)
        #expect(server.isRunning, "\(server.stateForMessages)")
        let stopped = server.terminate(waitingAtMost: .seconds(30))
        #expect(stopped.map { $0 < .seconds(25) } ?? false, "roster-server stopped \(stopped.map { "after \($0)" } ?? "not within 30 s") of SIGTERM")
    }
}

/// Clients that each send a list, a read and a write in turn until stopped, and what came back
/// (a request "unanswered" got no status: no answer within 30 s, or the transport failed).
final class RequestLoad: Sendable {
    struct Outcome: CustomStringConvertible {
        var statuses: [Int: Int] = [:]
        var unanswered: [String] = []
        var slowest: Duration = .zero
        var description: String {
            "statuses \(statuses.sorted { $0.key < $1.key }), slowest \(slowest), \(unanswered.count) unanswered"
        }
    }

    private let server: URL
    private let token: String
    private let users: [User]
    private let stopped = NIOLockedValueBox(false)

    init(server: ServerProcess, users: [User]) {
        self.server = server.url
        self.token = server.token
        self.users = users
    }

    func stop() { stopped.withLockedValue { $0 = true } }

    /// Each transport carries at most `clientsPerTransport` clients: AsyncHTTPClient opens 8
    /// connections a host and queues the requests beyond them, and `slowest` is to be the
    /// server's time, not a queue's.
    private static let clientsPerTransport = 6

    func run(clients: Int) async throws -> Outcome {
        let transports = try (0..<(clients + Self.clientsPerTransport - 1) / Self.clientsPerTransport).map { _ in
            // The shared test transport's connect timeout: the machine's load is not what is judged.
            try AsyncHTTPTransport(options: TransportOptions(connectTimeout: Duration.seconds(30).scaledForTests))
        }
        let outcome = await withTaskGroup(of: Outcome.self) { group in
            for client in 0..<clients {
                let transport = transports[client / Self.clientsPerTransport]
                group.addTask { await self.client(client, on: transport) }
            }
            var total = Outcome()
            for await outcome in group {
                total.statuses.merge(outcome.statuses, uniquingKeysWith: +)
                total.unanswered += outcome.unanswered
                total.slowest = max(total.slowest, outcome.slowest)
            }
            return total
        }
        for transport in transports { await transport.shutdown() }
        return outcome
    }

    private func client(_ number: Int, on transport: AsyncHTTPTransport) async -> Outcome {
        var outcome = Outcome()
        var turn = 0
        while !stopped.withLockedValue({ $0 }) {
            turn += 1
            let user = users[(number * 13 + turn) % users.count]
            let request: TransportRequest
            switch turn % 3 {
            case 0:
                request = TransportRequest(method: .get, url: url("/api/v1/users?per_page=50&page=\(turn % 6 + 1)"), headers: headers)
            case 1:
                request = TransportRequest(method: .get, url: url("/api/v1/users/\(user.id)"), headers: headers)
            default:
                let draft = UserDraft(name: user.name, email: user.email, role: user.role, status: turn % 2 == 0 ? .active : .suspended)
                var headers = headers
                headers.add(name: "Content-Type", value: "application/json")
                request = TransportRequest(
                    method: .put, url: url("/api/v1/users/\(user.id)"), headers: headers,
                    body: try? WireFormat.makeEncoder().encode(draft))
            }
            let started = ContinuousClock.now
            switch await Self.send(request, on: transport, within: .seconds(30)) {
            case .status(let status): outcome.statuses[status, default: 0] += 1
            case .failed(let why): outcome.unanswered.append("\(request.method) \(request.url.path): \(why)")
            }
            outcome.slowest = max(outcome.slowest, ContinuousClock.now - started)
        }
        return outcome
    }

    private var headers: HTTPHeaders { ["Authorization": "Bearer \(token)"] }

    private func url(_ pathAndQuery: String) -> URL { URL(string: server.absoluteString + pathAndQuery)! }

    private enum Answer: Sendable {
        case status(Int)
        case failed(String)
    }

    /// The status, or why none came: no answer within `limit`, or the transport's error.
    private static func send(_ request: TransportRequest, on transport: AsyncHTTPTransport, within limit: Duration) async -> Answer {
        await withTaskGroup(of: Answer.self) { group in
            group.addTask {
                do {
                    return .status(try await transport.send(request).status)
                } catch {
                    return .failed("\(error)")
                }
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return .failed("no answer within \(limit)")
            }
            let first = await group.next() ?? .failed("no answer")
            group.cancelAll()
            return first
        }
    }
}
