import Foundation
import RosterKit
import Testing

@Suite("Concurrent writes")
struct ConcurrencyTests {
    @Test("200 concurrent creates with 20 duplicated emails: exactly one of each email wins")
    func racingCreates() async throws {
        try await withServer { server in
            // 160 unique emails, and 20 emails sent twice each (in different case): 200 creates.
            var drafts: [UserDraft] = (0..<160).map { UserDraft(name: "Unique \($0)", email: "unique\($0)@example.com") }
            for index in 0..<20 {
                drafts.append(UserDraft(name: "First \(index)", email: "dup\(index)@example.com"))
                drafts.append(UserDraft(name: "Second \(index)", email: "DUP\(index)@Example.com"))
            }
            drafts.shuffle()
            let users = server.repository()
            let outcomes = await withTaskGroup(of: (String, Result<User, APIError>).self) { group in
                for draft in drafts {
                    group.addTask {
                        do {
                            return (draft.email.lowercased(), .success(try await users.create(draft)))
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
            let stored = try await users.list(UserQuery(perPage: 200))
            #expect(stored.total == 180)
            #expect(Set(stored.items.map { $0.email.lowercased() }) == Set(byEmail.keys))
        }
    }
}
