import Foundation
import NIOConcurrencyHelpers
import RosterKit
import RosterKitTestSupport
import Testing

/// `--api auto` keeps the dialect it found per server (`KnownDialects`), and the next start
/// sends its first list in that dialect alone (`RemoteDirectory`): a wrong entry costs one
/// request and is corrected.
struct KnownDialectsTests {
    private func temporaryFile() -> (folder: URL, path: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("roster-dialects-\(UUID().uuidString)")
        return (folder, folder.appendingPathComponent("state/dialects.tsv").path)
    }

    @Test func aServerIsKeptByItsAddressWithoutCredentialsInAPrivateFile() throws {
        let (folder, path) = temporaryFile()
        defer { try? FileManager.default.removeItem(at: folder) }
        let known = KnownDialects(path: path)
        #expect(known.dialect(for: URL(string: "https://scim.example.com/v2")!) == nil)
        try known.remember(.scim, for: URL(string: "https://alice:s3cret@SCIM.example.com/v2/?token=abc")!)
        #expect(known.dialect(for: URL(string: "https://scim.example.com/v2")!) == .scim)
        #expect(known.dialect(for: URL(string: "https://scim.example.com:8443/v2")!) == nil, "another port is another server")
        #expect(known.dialect(for: URL(string: "HTTPS://Scim.Example.COM/v2/")!) == .scim, "scheme and host in any case")
        try known.remember(.roster, for: URL(string: "http://[::1]:8080/roster/")!)
        #expect(known.dialect(for: URL(string: "http://[::1]:8080/roster")!) == .roster)
        #expect(known.dialect(for: URL(string: "http://[::1]/roster")!) == nil)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains("s3cret") && !text.contains("alice") && !text.contains("abc"))
        #expect(text.contains("\thttps://scim.example.com/v2\n"), "the key as earlier builds wrote it: \(text)")
        let file = try FileManager.default.attributesOfItem(atPath: path)
        let folderMode = try FileManager.default.attributesOfItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path)
        #expect((file[.posixPermissions] as? Int) == 0o600)
        #expect((folderMode[.posixPermissions] as? Int) == 0o700)
    }

    @Test func aFileThatCannotBeReadIsNoEntryAndIsReplacedByTheNextFinding() throws {
        let (folder, path) = temporaryFile()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
        try Data("{\"https://a.example\": \"".utf8).write(to: URL(fileURLWithPath: path))
        let known = KnownDialects(path: path)
        #expect(known.dialect(for: URL(string: "https://a.example")!) == nil)
        try known.remember(.roster, for: URL(string: "https://a.example")!)
        #expect(known.dialect(for: URL(string: "https://a.example/")!) == .roster)
    }

    @Test func aLineThatIsNotThreeFieldsIsSkippedAndTheOthersKept() throws {
        let (folder, path) = temporaryFile()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
        let text = "scim\t817461863.5\thttps://a.example\nroster\tyesterday\thttps://b.example\nroster\n\nroster\t817461864\thttps://c.example/v2\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let known = KnownDialects(path: path)
        #expect(known.dialect(for: URL(string: "https://a.example")!) == .scim)
        #expect(known.dialect(for: URL(string: "https://b.example")!) == nil, "a time that is not a number")
        #expect(known.dialect(for: URL(string: "https://c.example/v2/")!) == .roster)
        try known.remember(.roster, for: URL(string: "https://d.example")!)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3 && lines[0].hasPrefix("scim\t817461863.5\thttps://a.example"), "what was readable is written back, sorted by server")
    }

    @Test func atMostTheLimitIsKeptTheOldestFindingGoingFirst() throws {
        let (folder, path) = temporaryFile()
        defer { try? FileManager.default.removeItem(at: folder) }
        let known = KnownDialects(path: path)
        for n in 0...KnownDialects.limit {
            try known.remember(.roster, for: URL(string: "https://host\(n).example")!)
        }
        #expect(known.dialect(for: URL(string: "https://host0.example")!) == nil)
        #expect(known.dialect(for: URL(string: "https://host1.example")!) == .roster)
        #expect(known.dialect(for: URL(string: "https://host\(KnownDialects.limit).example")!) == .roster)
    }

    // The first list as last time, against a SCIM service in memory (the real servers: the
    // interop tests and RosterServerTests' KnownDialectAgainstServerTests).

    @Test func theDialectFoundLastTimeIsAskedAloneWithNoProbe() async throws {
        let service = FakeSCIMService(count: 120)
        let found = NIOLockedValueBox<[Dialect]>([])
        let directory = RemoteDirectory(client: makeClient(service.transport, clock: ContinuousClock(), retry: .never), choice: .auto,
                                        lastFound: .scim) { dialect in found.withLockedValue { $0.append(dialect) } }
        let page = try await directory.listUsers(UserQuery(page: 1, perPage: 50))
        #expect(page.items.first?.id == "u1" && page.total == 120)
        #expect(await directory.dialect == .scim)
        #expect(service.sent(.get).allSatisfy { !$0.url.path.contains("/api/v1/") }, "no Roster API health probe, no Roster API list")
        #expect(found.withLockedValue { $0 }.isEmpty, "nothing new to keep")
    }

    @Test func aWrongGuessCostsOneRequestThenTheProbeDecidesAndIsKept() async throws {
        let service = FakeSCIMService(count: 120)
        let found = NIOLockedValueBox<[Dialect]>([])
        let directory = RemoteDirectory(client: makeClient(service.transport, clock: ContinuousClock(), retry: .never), choice: .auto,
                                        lastFound: .roster) { dialect in found.withLockedValue { $0.append(dialect) } }
        let page = try await directory.listUsers(UserQuery(page: 1, perPage: 50))
        #expect(page.items.first?.id == "u1")
        #expect(await directory.dialect == .scim)
        #expect(found.withLockedValue { $0 } == [.scim])
        // The guess's list, and the one that goes beside the probe as on any first start.
        #expect(service.sent(.get).filter { $0.url.path.hasSuffix("/api/v1/users") }.count == 2)
    }

    @Test func aServerThatCannotBeReachedKeepsTheGuessForTheRetry() async throws {
        let down = ScriptedTransport(.fail(APIError.cannotConnect(host: "api.example.com")))
        let directory = RemoteDirectory(client: makeClient(down, clock: ContinuousClock(), retry: .never), choice: .auto, lastFound: .roster)
        await #expect(throws: APIError.cannotConnect(host: "api.example.com")) {
            try await directory.listUsers(UserQuery(page: 1, perPage: 50))
        }
        #expect(down.requestCount == 1, "the guess alone went out, not the probe")
        await #expect(throws: APIError.self) { try await directory.listUsers(UserQuery(page: 1, perPage: 50)) }
        #expect(down.requestCount == 2, "the retry guessed again")
    }

    @Test func aNamedDialectIsNeverGuessedNorKept() async throws {
        let service = FakeSCIMService(count: 10)
        let found = NIOLockedValueBox<[Dialect]>([])
        let directory = RemoteDirectory(client: makeClient(service.transport, clock: ContinuousClock(), retry: .never), choice: .scim,
                                        lastFound: .roster) { dialect in found.withLockedValue { $0.append(dialect) } }
        _ = try await directory.listUsers(UserQuery(page: 1, perPage: 50))
        #expect(service.sent(.get).allSatisfy { !$0.url.path.contains("/api/v1/") })
        #expect(found.withLockedValue { $0 }.isEmpty)
    }
}
