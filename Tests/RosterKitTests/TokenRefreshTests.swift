import Foundation
import RosterKit
import RosterKitTestSupport
import Synchronization
import Testing

/// Tokens from a file or a command: read at start, read once more on a 401, never logged.
@Suite("Token refresh")
struct TokenRefreshTests {
    let scratch = TemporaryFolder("tokens")
    var folder: URL { scratch.url }

    /// A command that prints `first` on its first run and `later` on every run after, counting
    /// its runs in a file.
    func command(first: String, later: String) -> (command: String, runs: @Sendable () -> Int) {
        let counter = folder.appendingPathComponent("runs").path
        let command = """
            n=$(cat '\(counter)' 2>/dev/null || echo 0); n=$((n+1)); echo $n > '\(counter)'; \
            if [ $n -eq 1 ]; then echo '\(first)'; else echo '\(later)'; fi
            """
        return (command, { Int((try? String(contentsOfFile: counter, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "0") ?? 0 })
    }

    /// A server that accepts only `Bearer <accepted>`.
    func server(accepting accepted: String) -> ScriptedTransport {
        ScriptedTransport(.handler { request in
            let authorization = request.headers["Authorization"] ?? ""
            guard authorization == "Bearer \(accepted)" else {
                return .error(401, code: "unauthorized", message: "The token is not valid.", headers: ["WWW-Authenticate": "Bearer"])
            }
            return .text(envelope(sampleUserJSON))
        })
    }

    func repository(_ transport: ScriptedTransport, tokens: TokenProvider, log: LogRecorder) -> RosterAPIDirectory {
        RosterAPIDirectory(client: APIClient(
            // tokenCommand is a process: under the whole suite's load its runs alone took over
            // 30 s (the default deadline) in a CI run. These tests judge the 401s, not time.
            baseURL: testBaseURL, tokens: tokens, transport: transport, retryPolicy: .never,
            deadline: Duration.seconds(300).scaledForTests, logger: log.logger(level: .trace)))
    }

    @Test("a 401 runs tokenCommand again and the request is retried once with the new token")
    func commandRefreshesOn401() async throws {
        let (command, runs) = command(first: "expired-token-1", later: "fresh-token-2")
        let transport = server(accepting: "fresh-token-2")
        let log = LogRecorder()
        let users = repository(transport, tokens: TokenProvider(.command(command)), log: log)
        #expect(try await users.user(id: "u1") == sampleUser)
        #expect(transport.requests.map { $0.headers["Authorization"] } == ["Bearer expired-token-1", "Bearer fresh-token-2"])
        #expect(runs() == 2)
        // Later requests use the new token without running the command again.
        #expect(try await users.user(id: "u1") == sampleUser)
        #expect(runs() == 2)
        #expect(!log.text.contains("expired-token-1") && !log.text.contains("fresh-token-2"), "no token in the log")
        #expect(log.text.contains("Authorization: <redacted>"), "the header was logged, redacted")
    }

    @Test("a second 401 ends in the token error, with no loop")
    func secondRefusalIsTheAnswer() async throws {
        let (command, runs) = command(first: "bad-1", later: "bad-2")
        let transport = server(accepting: "never")
        let log = LogRecorder()
        let users = repository(transport, tokens: TokenProvider(.command(command)), log: log)
        do {
            _ = try await users.user(id: "u1")
            Issue.record("a refused token must fail")
        } catch let error as APIError {
            #expect(error.status == 401)
            #expect(error.recoverySuggestion?.contains("tokenCommand") == true)
            #expect(!(error.errorDescription ?? "").contains("bad-"))
        }
        #expect(transport.requestCount == 2)
        #expect(runs() == 2)
        #expect(!log.text.contains("bad-1") && !log.text.contains("bad-2"))
    }

    @Test("the same token again from the command is not sent again")
    func unchangedTokenIsNotRetried() async throws {
        let (command, runs) = command(first: "same", later: "same")
        let transport = server(accepting: "other")
        await #expect(throws: APIError.self) {
            _ = try await repository(transport, tokens: TokenProvider(.command(command)), log: LogRecorder()).user(id: "u1")
        }
        #expect(transport.requestCount == 1)
        #expect(runs() == 2)
    }

    @Test("tokenFile is read again on a 401")
    func fileIsReadAgain() async throws {
        let path = folder.appendingPathComponent("token").path
        // 0600: the reader refuses a token file others can read.
        _ = FileManager.default.createFile(atPath: path, contents: Data("old-token\n".utf8), attributes: [.posixPermissions: 0o600])
        let tokens = TokenProvider(.file(path: path))
        let transport = ScriptedTransport(.handler { request in
            // The token is rotated on disk while the first request is on its way.
            if request.headers["Authorization"] == "Bearer old-token" {
                _ = FileManager.default.createFile(atPath: path, contents: Data("new-token\n".utf8), attributes: [.posixPermissions: 0o600])
                return .error(401, code: "unauthorized", message: "Expired.")
            }
            return .text(envelope(sampleUserJSON))
        })
        #expect(try await repository(transport, tokens: tokens, log: LogRecorder()).user(id: "u1") == sampleUser)
        #expect(transport.requests.last?.headers["Authorization"] == "Bearer new-token")
    }

    @Test("many requests refused at once share one run of the command")
    func concurrentRefusalsShareOneRefresh() async throws {
        let (command, runs) = command(first: "old", later: "new")
        let tokens = TokenProvider(.command(command))
        #expect(try await tokens.current() == "old")
        let transport = server(accepting: "new")
        let users = repository(transport, tokens: tokens, log: LogRecorder())
        try await withThrowingTaskGroup(of: User.self) { group in
            for _ in 0..<20 { group.addTask { try await users.user(id: "u1") } }
            for try await user in group { #expect(user == sampleUser) }
        }
        #expect(runs() == 2, "twenty 401s for the same token, one refresh")
        #expect(transport.requests.filter { $0.headers["Authorization"] == "Bearer new" }.count == 20, "each request ends with the new token")
    }

    @Test("a failing command is a clear error naming tokenCommand, with its own complaint, never the command")
    func failingCommand() async throws {
        let tokens = TokenProvider(.command("echo 'vault: permission denied' >&2; echo secret-in-command >/dev/null; exit 3"))
        do {
            _ = try await tokens.current()
            Issue.record("a failing command gives no token")
        } catch let error as APIError {
            let message = error.errorDescription ?? ""
            #expect(message.contains("tokenCommand exited with status 3: vault: permission denied"), "\(message)")
            #expect(!message.contains("secret-in-command"))
            #expect(!error.isRetryable)
        }
        await #expect(throws: APIError.tokenUnavailable("tokenCommand printed no token on its standard output.")) {
            _ = try await TokenProvider(.command("true")).current()
        }
    }

    @Test("a command that leaves a process holding its output gives its token once it exits, not when that process ends")
    func commandLeavingADaemon() async throws {
        // The background sleep keeps the pipe's write end open for 120 s (a credential helper
        // starting its agent does the same); reading to end of file would wait for it.
        let started = ContinuousClock.now
        let token = try await TokenProvider(.command("echo daemon-token; sleep 120 &")).current()
        #expect(token == "daemon-token")
        // Well under the sleep's 120 s (which is what reading to end of file would take), with
        // room for a machine busy with the whole parallel suite (12 s and 21 s were seen).
        #expect(ContinuousClock.now - started < .seconds(60), "took \(ContinuousClock.now - started)")
    }

    @Test("a command killed by a signal, and one printing over a megabyte, are clear errors that show nothing it printed")
    func killedAndChattyCommands() async throws {
        await #expect(throws: APIError.tokenUnavailable("tokenCommand exited with status 137.")) {
            _ = try await TokenProvider(.command("kill -9 $$")).current()
        }
        do {
            _ = try await TokenProvider(.command("echo secret-line; head -c 2000000 /dev/zero | tr '\\0' x")).current()
            Issue.record("a token from 2 MB of output")
        } catch let error as APIError {
            let message = error.errorDescription ?? ""
            #expect(message.contains("printed more than 1024 KiB"), "\(message)")
            #expect(!message.contains("secret-line") && !message.contains("xxxx"), "\(message)")
        }
    }

    @Test("a literal token is never refreshed")
    func literalTokenIsFinal() async throws {
        let transport = server(accepting: "other")
        await #expect(throws: APIError.self) {
            _ = try await repository(transport, tokens: TokenProvider(.literal("mine", origin: "--token")), log: LogRecorder()).user(id: "u1")
        }
        #expect(transport.requestCount == 1)
    }
}
