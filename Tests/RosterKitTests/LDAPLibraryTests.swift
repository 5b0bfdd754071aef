@testable import RosterLDAP
import Testing

/// `roster` starts loading libldap before it parses anything when an LDAP server is named
/// (Sources/roster/RosterMain.swift): the guess, and a load racing the first handles.
@Suite("libldap loaded ahead")
struct LDAPLibraryTests {
    @Test func anLDAPServerNamedOnTheCommandLineOrInTheEnvironmentIsSeen() {
        #expect(LDAPLibrary.isNamed(inArguments: ["--server", "ldap://dc.example.com"], serverVariable: nil))
        #expect(LDAPLibrary.isNamed(inArguments: ["--server=LDAPS://dc.example.com:636"], serverVariable: nil))
        #expect(LDAPLibrary.isNamed(inArguments: ["--check"], serverVariable: "ldaps://ldap.example.com"))
        #expect(!LDAPLibrary.isNamed(inArguments: ["--server", "https://roster.example.com"], serverVariable: nil))
        #expect(!LDAPLibrary.isNamed(inArguments: ["--server", "ldapserver.example.com", "--api", "scim"], serverVariable: "http://x"))
        #expect(!LDAPLibrary.isNamed(inArguments: [], serverVariable: nil))
    }

    /// Handles made on several threads while the load started by `preload` is under way (and a
    /// second `preload`) all get the library: the load happens once and each waits for it.
    @Test func handlesMadeWhileTheLoadIsUnderWayAllGetTheLibrary() async throws {
        LDAPLibrary.preload()
        LDAPLibrary.preload()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let connection = try LDAPConnection(url: "ldap://127.0.0.1:9", caFile: nil, connectTimeout: .seconds(1))
                    connection.close()
                }
            }
            try await group.waitForAll()
        }
    }
}
