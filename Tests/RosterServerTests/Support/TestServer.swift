import Foundation
import Logging
import RosterKit
import RosterKitTestSupport
@testable import RosterServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real server on 127.0.0.1, port 0, over a fresh temporary database, plus clients for it.
struct TestServer: Sendable {
    static let token = "test-token-\(UUID().uuidString)"

    let server: RunningServer
    let directory: URL
    let logs: LogRecorder
    /// What the server was given as `--database`: a SQLite file's path or a postgres:// URL.
    var database = ""

    var url: URL { server.url }
    var databasePath: String { directory.appendingPathComponent("users.sqlite").path }

    /// A client with the standard middleware and a policy that never waits long.
    func client(
        token: String? = TestServer.token, retryPolicy: RetryPolicy = .never, transport: any HTTPTransport = TestTransport.shared,
        deadline: Duration = .seconds(30)
    ) -> APIClient {
        APIClient(baseURL: url, token: token, transport: transport, retryPolicy: retryPolicy, deadline: deadline.scaledForTests,
                  logger: quietLogger)
    }

    func repository(token: String? = TestServer.token) -> RosterAPIDirectory {
        RosterAPIDirectory(client: client(token: token))
    }

    /// Sends exactly what it is given (no token unless in `headers`) and returns the raw answer.
    func raw(
        _ method: HTTPMethod, _ pathAndQuery: String, headers: HTTPHeaders = [:], body: Data? = nil
    ) async throws -> RawAnswer {
        let response = try await Self.rawTransport.send(TransportRequest(
            method: method, url: URL(string: url.absoluteString + pathAndQuery)!, headers: headers, body: body))
        return RawAnswer(response: response)
    }

    static var rawTransport: any HTTPTransport { TestTransport.shared }

    static var authorization: HTTPHeaders { ["Authorization": "Bearer \(token)"] }
    static var jsonWithAuthorization: HTTPHeaders { ["Authorization": "Bearer \(token)", "Content-Type": "application/json"] }
}

/// A response as it came, with the error envelope decoded when there is one.
struct RawAnswer: Sendable {
    let response: TransportResponse

    var status: Int { response.status }
    func header(_ name: String) -> String? { response.headers[name] }
    var text: String { String(decoding: response.body, as: UTF8.self) }

    /// The error envelope: `success` false, `data` null, an `error` body. Nil if the body is not one.
    var errorEnvelope: ErrorBody? {
        guard let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
              object["success"] as? Bool == false, object["data"] is NSNull,
              let envelope = try? WireFormat.makeDecoder().decode(APIResponse<EmptyPayload>.self, from: response.body)
        else { return nil }
        return envelope.error
    }
}

/// The database a test server keeps its directory in: the contract tests run on both.
enum Backend: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite, postgres
    var description: String { rawValue }
}

/// Starts a server for the body and always stops it and deletes its database afterwards.
/// `prepare` works on the store before the server opens it.
@discardableResult
func withServer<T>(
    backend: Backend = .sqlite,
    seedCount: Int = 0,
    faults: FaultInjection = .none,
    listCacheEntries: Int = ServerConfiguration.defaultListCacheEntries,
    now: (@Sendable () -> Date)? = nil,
    queryBudget: Duration? = nil,
    prepare: ((any DirectoryStore) async throws -> Void)? = nil,
    _ body: (TestServer) async throws -> T
) async throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("roster-server-tests-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    var database = directory.appendingPathComponent("users.sqlite").path
    var postgresName: String?
    switch backend {
    case .sqlite:
        if let prepare {
            try await prepare(try SQLiteStore(path: database))
        }
    case .postgres:
        (database, postgresName) = try await TestPostgres.shared.createDatabase()
        if let prepare {
            let opened = try await PostgresDatabase.open(url: database, logger: quietLogger, workDeadline: PostgresDatabase.notUnderTest)
            do {
                try await prepare(PostgresStore(database: opened))
            } catch {
                await opened.close()
                throw error
            }
            await opened.close()
        }
    }
    let logs = LogRecorder()
    var configuration = ServerConfiguration(
        databasePath: database, token: TestServer.token, seedCount: seedCount, faults: faults, listCacheEntries: listCacheEntries)
    if let now { configuration.now = now }
    // A budget a test names is what it tests; the standard one only has to let its queries
    // through, and stretches with everything else under a sanitizer.
    configuration.queryBudget = queryBudget ?? QueryBudget.standard.scaledForTests
    configuration.databaseWorkDeadline = PostgresDatabase.notUnderTest
    let server = try await UserAPIServer.start(
        configuration,
        logger: logs.logger(label: "roster.server", level: .debug))
    let testServer = TestServer(server: server, directory: directory, logs: logs, database: database)
    let result: Result<T, any Error>
    do {
        result = .success(try await body(testServer))
    } catch {
        result = .failure(error)
    }
    await server.shutdown()
    if let postgresName { try? await TestPostgres.shared.dropDatabase(named: postgresName) }
    return try result.get()
}

/// For clients in tests: their request logs would only bury the test output.
let quietLogger = Logger(label: "roster.client.test") { _ in SwiftLogNoOpLogHandler() }

extension Data {
    static func json(_ text: String) -> Data { Data(text.utf8) }
}

extension QueryBudget {
    /// For a store whose query budget is not what a test checks (QueryBudgetTests does): the
    /// standard 250 ms, even stretched, stopped pages and fills under ThreadSanitizer or a full
    /// parallel run on 2 cores.
    static let notUnderTest = Duration.seconds(60)
}

extension PostgresDatabase {
    /// For a pool whose work deadline is not what a test checks (PostgresWorkDeadlineTests
    /// does): in a full parallel run on 2 cores a task can wait seconds for a thread (tests
    /// that start processes block theirs), and a list call went past the standard 15 s.
    static let notUnderTest = Duration.seconds(120)
}
