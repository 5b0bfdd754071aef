import Foundation
@testable import RosterKit
@testable import RosterLDAP
import RosterKitTestSupport
import Testing

/// `roster` begins its LDAP connection and StartTLS as soon as the settings are read
/// (Sources/roster/RosterCommand.swift); the session binds on it. Against a real slapd: it is
/// taken only by a session with the same settings, its failure is the first call's failure,
/// and one the server dropped before the bind is made again.
@Suite("LDAP connection begun ahead", .serialized)
struct LDAPConnectAheadTests {
    let server: SlapdServer

    init() throws { server = try SlapdServer(people: 20) }

    func begin(_ configuration: LDAPConfiguration) {
        LDAPConnectAhead.begin(url: configuration.url, caFile: configuration.caFile, startTLS: configuration.startTLS,
                               connectTimeout: configuration.connectTimeout)
    }

    @Test func theSessionWithTheSameSettingsBindsOnTheConnectionMadeAhead() async throws {
        let configuration = server.configuration()
        begin(configuration)
        #expect(LDAPConnectAhead.holds(configuration))
        let page = try await LDAPDirectory(configuration: configuration).listUsers(UserQuery(perPage: 5))
        #expect(page.items.count == 5)
        #expect(!LDAPConnectAhead.holds(configuration), "the session took the connection")
        // Taken once: a second session connects on its own.
        let again = try await LDAPDirectory(configuration: configuration).listUsers(UserQuery(perPage: 5))
        #expect(again.items.map(\.id) == page.items.map(\.id))
    }

    @Test func aSessionWithOtherSettingsLeavesItAndConnectsItself() async throws {
        let ahead = server.configuration(startTLS: false)
        begin(ahead)
        let configuration = server.configuration()
        let page = try await LDAPDirectory(configuration: configuration).listUsers(UserQuery(perPage: 5))
        #expect(page.items.count == 5)
        #expect(LDAPConnectAhead.holds(ahead), "a connection without StartTLS is not one with it")
        let session = LDAPSession(configuration)
        _ = try await session.rootDSE()
        #expect(LDAPConnectAhead.holds(ahead))
        #expect(LDAPConnectAhead.take(ahead) != nil)
    }

    /// A CA that does not sign the server's certificate: the TLS failure found ahead is the one
    /// a session finds by itself, word for word.
    @Test func itsFailureIsTheFirstCallsFailureSaidTheSameWay() async throws {
        var configuration = server.configuration()
        configuration.caFile = nil // the system's CAs, which never signed the test CA
        let direct = await #expect(throws: LDAPConnectError.self) {
            _ = try await LDAPSession(configuration).rootDSE()
        }
        begin(configuration)
        let ahead = await #expect(throws: LDAPConnectError.self) {
            _ = try await LDAPSession(configuration).rootDSE()
        }
        #expect(!LDAPConnectAhead.holds(configuration))
        #expect(ahead.map { String(describing: $0) } == direct.map { String(describing: $0) })
    }

    /// The server restarted after the handshake and before the bind (a password prompt kept
    /// the app waiting): the session connects again instead of failing.
    @Test func aConnectionTheServerDroppedBeforeTheBindIsMadeAgain() async throws {
        let configuration = server.configuration()
        begin(configuration)
        let began = ContinuousClock.now
        while !LDAPConnectAhead.isReady(configuration) && ContinuousClock.now - began < .seconds(10) {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(LDAPConnectAhead.isReady(configuration))
        try server.halt()
        try server.resume()
        let page = try await LDAPDirectory(configuration: configuration).listUsers(UserQuery(perPage: 5))
        #expect(page.items.count == 5)
        #expect(!LDAPConnectAhead.holds(configuration))
    }
}
