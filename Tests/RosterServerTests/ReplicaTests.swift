import Foundation
import RosterKit
import RosterKitTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The database several roster-servers share: PostgreSQL for replicas on many machines, or one
/// SQLite file for processes on one machine (two `roster` windows on the embedded database).
enum SharedDatabase: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case postgres, sqlite

    var testDescription: String { rawValue }

    /// A fresh, empty database: its `--database` value, and how to remove it. Not migrated, so
    /// the replicas starting together migrate it (one at a time, under the advisory lock).
    func make() async throws -> (location: String, remove: @Sendable () async -> Void) {
        switch self {
        case .postgres:
            let (url, name) = try await TestPostgres.shared.createDatabase(migrated: false)
            return (url, { try? await TestPostgres.shared.dropDatabase(named: name) })
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("roster-replicas-\(UUID().uuidString)")
            return (directory.appendingPathComponent("users.sqlite").path, { try? FileManager.default.removeItem(at: directory) })
        }
    }
}

/// Several roster-server processes (the built binary) on one database: one directory, no lost
/// or duplicated writes, and list caches that follow every replica's writes.
@Suite("Replicas: roster-server processes on one database")
struct ReplicaTests {
    static let token = "replica-test-token"

    /// Starts `count` servers on one fresh database, list cache on; always stops them and removes it.
    private func withReplicas(_ count: Int, on database: SharedDatabase = .postgres,
                              _ body: ([RosterAPIDirectory]) async throws -> Void) async throws {
        try await withReplicaURLs(count, on: database) { urls in
            var directories: [RosterAPIDirectory] = []
            for url in urls {
                let client = Self.client(baseURL: url)
                // As the app does: a create carries an Idempotency-Key, and a server known to
                // replay keys may be sent it again after a 503 (a burst of 300 writes on two
                // busy cores can pass a write's 15 s database deadline).
                _ = await client.learnServerFeatures()
                directories.append(RosterAPIDirectory(client: client))
            }
            try await body(directories)
        }
    }

    private static func client(baseURL: URL) -> APIClient {
        APIClient(
            baseURL: baseURL, token: token, transport: ConcurrencyTests.patientTransport,
            retryPolicy: RetryPolicy(maximumAttempts: 4), deadline: .seconds(60), logger: quietLogger)
    }

    /// The same, handing the body each server's URL.
    private func withReplicaURLs(_ count: Int, on database: SharedDatabase, _ body: ([URL]) async throws -> Void) async throws {
        let (url, remove) = try await database.make()
        var servers: [ServerProcess] = []
        let result: Result<Void, any Error>
        do {
            var urls: [URL] = []
            for _ in 0..<count {
                let server = try ServerProcess(arguments: [
                    "--port", "0", "--database", url, "--token", Self.token, "--log-level", "warning",
                ])
                servers.append(server)
                urls.append(try await server.waitForListening())
            }
            try await body(urls)
            result = .success(())
        } catch {
            result = .failure(error)
        }
        for server in servers {
            server.signal(SIGTERM)
            _ = await server.waitForExit()
        }
        await remove()
        try result.get()
    }

    /// Every user, through one replica, by pages of 200.
    private func everyone(_ users: RosterAPIDirectory) async throws -> [User] {
        var all: [User] = []
        var page = 1
        while true {
            let answer = try await users.listUsers(UserQuery(page: page, perPage: 200))
            all += answer.items
            if answer.items.isEmpty || all.count >= answer.total { return all }
            page += 1
        }
    }

    @Test("300 concurrent creates over the replicas, 30 emails sent twice: 270 users, one win per email, all on every replica",
          arguments: [(SharedDatabase.postgres, 3), (.sqlite, 2)])
    func concurrentCreatesOverReplicas(database: SharedDatabase, count: Int) async throws {
        try await withReplicas(count, on: database) { replicas in
            // 240 unique emails, and 30 emails sent twice (in different case, through different replicas): 300 creates.
            var creates: [(replica: Int, draft: UserDraft)] = (0..<240).map {
                ($0 % count, UserDraft(name: "Unique \($0)", email: "unique\($0)@example.com"))
            }
            for index in 0..<30 {
                creates.append((index % count, UserDraft(name: "First \(index)", email: "dup\(index)@example.com")))
                creates.append(((index + 1) % count, UserDraft(name: "Second \(index)", email: "DUP\(index)@Example.com")))
            }
            creates.shuffle()
            #expect(creates.count == 300)
            let outcomes = await withTaskGroup(of: (String, Int).self) { group in
                for (replica, draft) in creates {
                    group.addTask {
                        do {
                            _ = try await replicas[replica].createUser(draft)
                            return (draft.email.lowercased(), 201)
                        } catch let error as APIError {
                            return (draft.email.lowercased(), error.status ?? -1)
                        } catch {
                            Issue.record("\(draft.email): \(error)")
                            return (draft.email.lowercased(), -1)
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let byEmail = Dictionary(grouping: outcomes, by: \.0).mapValues { $0.map(\.1).sorted() }
            #expect(byEmail.count == 270)
            #expect(outcomes.filter { $0.1 == 201 }.count == 270)
            #expect(outcomes.filter { $0.1 == 409 }.count == 30)
            for (email, statuses) in byEmail {
                #expect(statuses == (email.hasPrefix("dup") ? [201, 409] : [201]), "\(email)")
            }
            for replica in replicas {
                let listed = try await everyone(replica)
                #expect(listed.count == 270)
                #expect(Set(listed.map { $0.email.lowercased() }) == Set(byEmail.keys))
            }
        }
    }

    @Test("ROSTER_DATABASE names the database when --database is not given")
    func databaseFromEnvironment() async throws {
        let (url, name) = try await TestPostgres.shared.createDatabase()
        let fromEnvironment = try ServerProcess(
            arguments: ["--port", "0", "--token", Self.token, "--log-level", "warning"], environment: ["ROSTER_DATABASE": url])
        let fromOption = try ServerProcess(arguments: ["--port", "0", "--database", url, "--token", Self.token, "--log-level", "warning"])
        func repository(_ server: ServerProcess) async throws -> RosterAPIDirectory {
            RosterAPIDirectory(client: APIClient(
                baseURL: try await server.waitForListening(), token: Self.token, transport: TestTransport.shared,
                retryPolicy: .never, logger: quietLogger))
        }
        let created = try await repository(fromEnvironment).createUser(UserDraft(name: "Ada", email: "ada@example.com"))
        #expect(try await repository(fromOption).user(id: created.id) == created)
        for server in [fromEnvironment, fromOption] {
            server.signal(SIGTERM)
            _ = await server.waitForExit()
        }
        // (On a failure above, the servers are killed as they go and the database goes with the cluster.)
        try await TestPostgres.shared.dropDatabase(named: name)
    }

    @Test("a write through one replica is in the next list through every other, list caches on",
          arguments: [(SharedDatabase.postgres, 3), (.sqlite, 2)])
    func writesReachOtherReplicasCaches(database: SharedDatabase, count: Int) async throws {
        try await withReplicas(count, on: database) { replicas in
            for index in 0..<5 {
                _ = try await replicas[0].createUser(UserDraft(name: "Seed \(index)", email: "seed\(index)@example.com"))
            }
            let query = UserQuery(perPage: 50)
            // Asked twice through each replica: the second answer comes from its cache.
            for replica in replicas {
                #expect(try await replica.listUsers(query).total == 5)
                #expect(try await replica.listUsers(query).total == 5)
            }
            for (writer, replica) in replicas.enumerated() {
                let created = try await replica.createUser(UserDraft(name: "Through \(writer)", email: "through\(writer)@example.com"))
                for other in replicas {
                    #expect(try await other.listUsers(query).items.contains(created), "create through \(writer)")
                }
                let renamed = try await replica.updateUser(id: created.id, with: UserDraft(name: "Renamed \(writer)", email: created.email))
                for other in replicas {
                    #expect(try await other.listUsers(query).items.contains(renamed), "update through \(writer)")
                }
                try await replica.deleteUser(id: created.id)
                for other in replicas {
                    #expect(try await !other.listUsers(query).items.contains { $0.id == created.id }, "delete through \(writer)")
                }
            }
        }
    }

    @Test("a SCIM write through one replica is in the next /api/v1 list through every other, list caches on",
          arguments: [(SharedDatabase.postgres, 3), (.sqlite, 2)])
    func scimWritesReachOtherReplicasCaches(database: SharedDatabase, count: Int) async throws {
        try await withReplicaURLs(count, on: database) { urls in
            let rosters = urls.map { RosterAPIDirectory(client: Self.client(baseURL: $0)) }
            let scims = urls.map { SCIMDirectory(client: Self.client(baseURL: $0.appendingPathComponent("scim/v2"))) }
            let query = UserQuery(perPage: 50)
            for (writer, scim) in scims.enumerated() {
                // Asked twice through each replica: the second answer comes from its cache.
                for roster in rosters {
                    _ = try await roster.listUsers(query)
                    _ = try await roster.listUsers(query)
                }
                let created = try await scim.createUser(UserDraft(name: "Scim \(writer)", email: "scim\(writer)@example.com"))
                for roster in rosters {
                    #expect(try await roster.listUsers(query).items.contains { $0.id == created.id && $0.name == created.name },
                            "SCIM create through \(writer)")
                }
                let renamed = try await scim.updateUser(id: created.id, with: UserDraft(name: "Renamed \(writer)", email: created.email))
                for roster in rosters {
                    #expect(try await roster.listUsers(query).items.contains { $0.id == created.id && $0.name == renamed.name },
                            "SCIM update through \(writer)")
                }
                try await scim.deleteUser(id: created.id)
                for roster in rosters {
                    #expect(try await !roster.listUsers(query).items.contains { $0.id == created.id }, "SCIM delete through \(writer)")
                }
            }
        }
    }
}
