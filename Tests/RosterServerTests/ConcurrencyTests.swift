import Foundation
import RosterKit
import RosterKitTestSupport
import Testing

@Suite("Concurrent writes")
struct ConcurrencyTests {
    /// The 200 requests queue for the transport's few connections to the server, and the
    /// transport gives up on a queued request after its connect timeout (never sent: the
    /// server stores none of them): with every other suite running on two cores, a debug
    /// build on PostgreSQL took past 60 s to work through the queue here. A wait is not what
    /// these tests judge; the winners are.
    static let patientWait = Duration.seconds(300).scaledForTests

    static let patientTransport: AsyncHTTPTransport = {
        do {
            return try AsyncHTTPTransport(options: TransportOptions(connectTimeout: patientWait, requestTimeout: patientWait))
        } catch {
            fatalError("these transport options cannot fail: \(error)")
        }
    }()

    @Test("200 concurrent creates with 20 duplicated emails: exactly one of each email wins", arguments: Backend.allCases)
    func racingCreates(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            // 160 unique emails, and 20 emails sent twice each (in different case): 200 creates.
            var drafts: [UserDraft] = (0..<160).map { UserDraft(name: "Unique \($0)", email: "unique\($0)@example.com") }
            for index in 0..<20 {
                drafts.append(UserDraft(name: "First \(index)", email: "dup\(index)@example.com"))
                drafts.append(UserDraft(name: "Second \(index)", email: "DUP\(index)@Example.com"))
            }
            drafts.shuffle()
            // PostgreSQL's writers take turns on the generation row: 200 creates in a row, each with
            // its triggers, took 6.5 s alone and over 30 s (the standard deadline) with the whole
            // suite running. Each request may wait as long as the transport does.
            let users = RosterAPIDirectory(client: server.client(transport: Self.patientTransport, deadline: Self.patientWait))
            let outcomes = await withTaskGroup(of: (String, Result<User, APIError>).self) { group in
                for draft in drafts {
                    group.addTask {
                        do {
                            return (draft.email.lowercased(), .success(try await users.createUser(draft)))
                        } catch let error as APIError {
                            return (draft.email.lowercased(), .failure(error))
                        } catch {
                            return (draft.email.lowercased(), .failure(.transportFailed("\(error)")))
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.count == 200)
            let byEmail = Dictionary(grouping: outcomes, by: \.0)
            #expect(byEmail.count == 180)
            for (email, results) in byEmail {
                let wins = results.filter { if case .success = $0.1 { true } else { false } }
                #expect(wins.count == 1, "\(email)")
                for case .failure(let error) in results.map(\.1) {
                    #expect(error.status == 409, "\(email): \(error)")
                    #expect(error.fieldErrors.map(\.field) == ["email"])
                }
            }
            let stored = try await users.listUsers(UserQuery(perPage: 200))
            #expect(stored.total == 180)
            #expect(Set(stored.items.map { $0.email.lowercased() }) == Set(byEmail.keys))
        }
    }
}
