import Foundation
import RosterKit
import RosterKitTestSupport

let testBaseURL = URL(string: "https://api.example.com/roster/")!

/// A client over a scripted transport, with deterministic retry waits (the full ceiling).
func makeClient(
    _ transport: any HTTPTransport,
    clock: any Clock<Duration> = ManualClock(),
    retry: RetryPolicy = RetryPolicy(jitter: { $0 }),
    deadline: Duration = .seconds(30),
    token: String? = "test-token",
    logRecorder: LogRecorder? = nil
) -> APIClient {
    APIClient(
        baseURL: testBaseURL, token: token, transport: transport, retryPolicy: retry,
        deadline: deadline, clock: clock,
        logger: logRecorder?.logger() ?? LogRecorder().logger(level: .critical))
}

let sampleUser = User.fixture(
    id: "u1", name: "Ana Silva", email: "ana@example.com", role: .admin, status: .active,
    createdAt: Date(timeIntervalSince1970: 1_763_717_400), updatedAt: Date(timeIntervalSince1970: 1_763_717_400.5))

/// The JSON of `sampleUser` as a server writes it, for hand-edited variants.
let sampleUserJSON = """
{"id":"u1","name":"Ana Silva","email":"ana@example.com","role":"admin","status":"active",\
"created_at":"2025-11-21T09:30:00Z","updated_at":"2025-11-21T09:30:00.500Z"}
"""

func envelope(_ dataJSON: String) -> String {
    #"{"success":true,"data":\#(dataJSON),"error":null}"#
}
