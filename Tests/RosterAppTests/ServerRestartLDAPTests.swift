import RosterKit
import RosterLDAP
import RosterKitTestSupport
import Testing
@testable import RosterApp

/// The error dialog, then `r`, when the directory server stops and starts again: against
/// OpenLDAP's slapd (SlapdServer) and Samba's AD DC (SambaServer), through the app model, as
/// the keys drive it (`R` reloads, `r` retries).
@Suite("Server stopped and started, through the app", .serialized, .timeLimit(.minutes(3)))
@MainActor
struct ServerRestartLDAPTests {
    @Test func onSlapdTheDialogSaysSoAndRetryLoadsTheListAgain() async throws {
        let server = try SlapdServer(people: 40)
        try await stopRefreshRestartRetry(LDAPDirectory(configuration: server.configuration()), total: 40,
                                          halt: server.halt, resume: server.resume)
    }

    @Test func onSambaADTheDialogSaysSoAndRetryLoadsTheListAgain() async throws {
        let server = try SambaServer()
        let directory = LDAPDirectory(configuration: server.configuration())
        let total = try await directory.listUsers(UserQuery(perPage: 1)).total
        try await stopRefreshRestartRetry(directory, total: total, halt: server.halt, resume: server.resume)
    }

    private func stopRefreshRestartRetry(_ directory: LDAPDirectory, total: Int,
                                         halt: () throws -> Void, resume: () throws -> Void) async throws {
        let app = AppModel(directory: directory, clock: ManualClock(), perPage: 50)
        app.setListViewport(height: 10)
        app.start()
        await app.activity.waitForLoads()
        #expect(app.list.state.value?.total == total)
        let first = try #require(app.list.selectedUser)

        try halt()
        app.refresh()
        await app.activity.waitForLoads()
        guard case .error(let dialog) = app.topScreen else {
            Issue.record("expected the error dialog, got \(app.topScreen)")
            return
        }
        #expect(dialog.error.isRetryable)
        #expect(dialog.message.contains("connect"), "a sentence: \(dialog.message)")
        #expect(!dialog.message.contains("-1") && !dialog.message.contains("LDAP_"))

        // `r` while it is still down: the dialog again, nothing lost.
        app.retry()
        await app.activity.waitForLoads()
        #expect(await eventuallyAfterYields { if case .error = app.topScreen { true } else { false } })

        try resume()
        app.retry()
        await app.activity.waitForLoads()
        #expect(app.topScreen == .list)
        #expect(app.list.state.value?.total == total)
        #expect(app.list.selectedUser?.id == first.id)
    }
}
