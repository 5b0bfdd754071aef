import Foundation
@testable import RosterKit
@testable import RosterLDAP
import RosterKitTestSupport
import Testing

/// A server that takes the connection and then stops answering in the middle of the TLS
/// handshake: Roster gives up after its connect timeout with a sentence, and waits without
/// spinning (libldap 2.5's own handshake loop spins on a non-blocking socket; shim.h).
@Suite("LDAP TLS handshake against a server that stops answering")
struct LDAPHandshakeTests {
    /// Answers StartTLS with success (RFC 4511 section 4.14.2), then reads the client's hello and
    /// never answers it.
    static func stallingAfterStartTLS() throws -> LoopbackListener {
        try LoopbackListener { client in
            let request = client.readSome()
            // The message id is the request's (a one-byte integer from a fresh handle: 02 01 id).
            guard request.count > 4, request[2] == 0x02, request[3] == 0x01 else { return }
            client.write([0x30, 0x0C, 0x02, 0x01, request[4], 0x78, 0x07, 0x0A, 0x01, 0x00, 0x04, 0x00, 0x04, 0x00])
            client.waitForClose()
        }
    }

    /// Takes the connection and the client's hello, answers nothing (an ldaps port that hangs).
    static func silent() throws -> LoopbackListener {
        try LoopbackListener { client in client.waitForClose() }
    }

    /// Connects to `url` with a connect timeout of 1 s on a thread of its own (as LDAPSession
    /// does; `startTLS` after the connect when asked), and checks the call ended in a timeout of
    /// `operation` after about `limit`, that thread using little CPU meanwhile.
    static func expectTimeout(_ url: String, startTLS: Bool, operation: String, within limit: Duration) async throws {
        let (failure, wall, cpu) = await withCheckedContinuation { continuation in
            let thread = Thread {
                var start = timespec(), end = timespec()
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start)
                let began = ContinuousClock.now
                var failure: (any Error)?
                do {
                    let connection = try LDAPConnection(url: url, caFile: nil, connectTimeout: .seconds(1))
                    defer { connection.close() }
                    try connection.open()
                    if startTLS { try connection.startTLS() }
                } catch {
                    failure = error
                }
                let wall = ContinuousClock.now - began
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end)
                let cpu = Duration.seconds(end.tv_sec - start.tv_sec) + .nanoseconds(end.tv_nsec - start.tv_nsec)
                continuation.resume(returning: (failure, wall, cpu))
            }
            thread.start()
        }
        let error = try #require(failure as? LDAPResultError)
        #expect(error.code == LDAPResultError.timeout && error.operation == operation, "\(error)")
        #expect(wall >= .milliseconds(900) && wall < limit.scaledForTests, "\(wall)")
        #expect(cpu < Duration.milliseconds(300).scaledForTests, "the wait used \(cpu) of CPU in \(wall)")
    }

    @Test("StartTLS answered, then a handshake that never ends: a timeout after the connect timeout, without spinning")
    func startTLSStalls() async throws {
        let server = try Self.stallingAfterStartTLS()
        defer { server.close() }
        try await Self.expectTimeout("ldap://127.0.0.1:\(server.port)", startTLS: true, operation: "StartTLS", within: .seconds(4))
    }

    @Test("ldaps to a port that never answers the hello: a timeout, without spinning")
    func ldapsStalls() async throws {
        let server = try Self.silent()
        defer { server.close() }
        try await Self.expectTimeout("ldaps://127.0.0.1:\(server.port)", startTLS: false, operation: "connect", within: .seconds(5))
    }

    @Test("the directory says the server timed out, not that its certificate needs trusting")
    func directorySaysTimedOut() async throws {
        let server = try Self.stallingAfterStartTLS()
        defer { server.close() }
        var configuration = LDAPConfiguration(url: URL(string: "ldap://127.0.0.1:\(server.port)")!, bindDN: "cn=admin,dc=roster,dc=test",
                                              password: TokenProvider(.literal("secret", origin: "test")))
        configuration.connectTimeout = .seconds(1)
        let directory = LDAPDirectory(configuration: configuration)
        await #expect(throws: APIError.timedOut) { _ = try await directory.listUsers(UserQuery(perPage: 10)) }
    }
}
