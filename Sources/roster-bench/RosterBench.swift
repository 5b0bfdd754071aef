import Foundation
import Logging
import RosterKit

/// The client side of `make bench-server`: how many first pages per second RosterKit's
/// `APIClient` fetches from a running server, one request at a time (what the TUI does), over
/// `AsyncHTTPTransport`; and the bare transport and the decoding alone, so each share of the
/// time is visible.
///
/// Usage: roster-bench BASE_URL TOKEN [SECONDS] [--apiclient-only], or roster-bench --cancel
/// (how long a cancelled request takes to end, at each stage; see `CancelBench`), or
/// roster-bench --review ... (the access review beside two CSV exports; see `ReviewBench`).
/// (`--apiclient-only` measures only the `APIClient`, for a second server.) With
/// `--import BASE_URL TOKEN [ROWS] [RUNS]`, a CSV import's preview and run (`ImportBench`); with
/// `--timestamps`, ISO8601Timestamp against Foundation's ISO8601FormatStyle (`TimestampBench`).
@main
struct RosterBench {
    static func main() async throws {
        let arguments = CommandLine.arguments
        if arguments.count > 1, arguments[1] == "--review" {
            try await ReviewBench.run(Array(arguments.dropFirst(2)))
            return
        }
        if arguments.count > 1, arguments[1] == "--timestamps" {
            TimestampBench.run(Array(arguments.dropFirst(2)))
            return
        }
        if arguments.count == 2, arguments[1] == "--cancel" {
            try await CancelBench.run()
            return
        }
        if arguments.count >= 4, arguments[1] == "--import", let baseURL = URL(string: arguments[2]) {
            let rows = arguments.count > 4 ? Int(arguments[4]) ?? 10_000 : 10_000
            let runs = arguments.count > 5 ? Int(arguments[5]) ?? 3 : 3
            try await ImportBench.run(baseURL: baseURL, token: arguments[3], rows: rows, runs: runs)
            return
        }
        guard arguments.count >= 3, let baseURL = URL(string: arguments[1]) else {
            FileHandle.standardError.write(Data("usage: roster-bench BASE_URL TOKEN [SECONDS] [--apiclient-only]\n".utf8))
            exit(2)
        }
        let token = arguments[2]
        let seconds = arguments.count > 3 ? Double(arguments[3]) ?? 5 : 5
        let silent = Logger(label: "roster.bench") { _ in SwiftLogNoOpLogHandler() }

        let query = UserQuery(perPage: 50)
        var request = try UserEndpoint.list(query).makeRequest(baseURL: baseURL, encoder: WireFormat.makeEncoder())
        request.headers["Authorization"] = "Bearer \(token)"
        let frozenRequest = request

        func clientRate(_ transport: any HTTPTransport) async throws -> Double {
            let client = APIClient(baseURL: baseURL, token: token, transport: transport, logger: silent)
            return try await rate(for: seconds) {
                let page: Page<User> = try await client.send(UserEndpoint.list(query))
                precondition(page.items.count == 50)
            }
        }
        func transportRate(_ transport: any HTTPTransport) async throws -> Double {
            try await rate(for: seconds) {
                let response = try await transport.send(frozenRequest)
                precondition(response.status == 200)
            }
        }

        let transport = try AsyncHTTPTransport()
        let client = try await clientRate(transport)
        if arguments.count > 4, arguments[4] == "--apiclient-only" {
            print(String(format: "apiclient_rps=%.0f", client))
            await transport.shutdown()
            return
        }
        let bare = try await transportRate(transport)
        // The client's own work on one answer, without any network: decoding the envelope.
        let body = try await transport.send(frozenRequest).body
        await transport.shutdown()
        let decoder = WireFormat.makeDecoder()
        let decodeRate = try await rate(for: 1) {
            let decoded = try WireFormat.decodeEnvelope(APIResponse<Page<User>>.self, from: body, decoder: decoder)
            precondition(decoded.data?.items.count == 50)
        }
        print(String(format: "apiclient_rps=%.0f transport_rps=%.0f decode_per_s=%.0f", client, bare, decodeRate))
    }

    /// Calls `body` back to back for a warm-up second, then for `seconds`; returns calls per second.
    static func rate(for seconds: Double, _ body: @Sendable () async throws -> Void) async throws -> Double {
        let clock = ContinuousClock()
        let warmUpEnd = clock.now + .seconds(1)
        while clock.now < warmUpEnd { try await body() }
        let start = clock.now
        let end = start + .milliseconds(Int(seconds * 1000))
        var count = 0
        while clock.now < end {
            try await body()
            count += 1
        }
        let elapsed = clock.now - start
        return Double(count) / elapsed.seconds
    }
}
