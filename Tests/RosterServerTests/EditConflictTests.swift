import Foundation
import RosterKit
import Testing

/// Two people editing one user through the Roster API: the second PUT carries the version it
/// read (`If-Match`) and is refused with 412, not written over the first. On both engines.
@Suite("Edits that crossed (If-Match on the Roster API)")
struct EditConflictTests {
    @Test("a stale If-Match is refused with 412 and nothing is written", arguments: Backend.allCases)
    func staleVersionIsRefused(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let created = try await server.repository().createUser(UserDraft(name: "Ada Lovelace", email: "ada@example.com"))
            let put: (String, String?) async throws -> RawAnswer = { name, tag in
                var headers = TestServer.jsonWithAuthorization
                if let tag { headers["If-Match"] = tag }
                return try await server.raw(.put, "/api/v1/users/\(created.id)", headers: headers,
                                            body: .json(#"{"name":"\#(name)","email":"ada@example.com"}"#))
            }
            let first = try await put("First", created.entityTag)
            #expect(first.status == 200)
            let firstUser = try #require(try WireFormat.makeDecoder().decode(APIResponse<User>.self, from: first.response.body).data)
            #expect(first.header("ETag") == firstUser.entityTag)
            #expect(firstUser.entityTag != created.entityTag)

            let second = try await put("Second", created.entityTag)
            #expect(second.status == 412)
            let body = try WireFormat.makeDecoder().decode(APIResponse<User>.self, from: second.response.body)
            #expect(body.error?.code == "user_changed")
            #expect(try await server.repository().user(id: created.id).name == "First", "the second edit wrote nothing")

            // The current version, a list of tags holding it, and `*` are accepted; no If-Match too.
            #expect(try await put("Third", #"W/"x", \#(firstUser.entityTag)"#).status == 200)
            #expect(try await put("Fourth", "*").status == 200)
            #expect(try await put("Fifth", nil).status == 200)
        }
    }

    @Test("every change moves the version, even two in one millisecond", arguments: Backend.allCases)
    func eachChangeHasItsOwnVersion(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let users = server.repository()
            let created = try await users.createUser(UserDraft(name: "Grace Hopper", email: "grace@example.com"))
            var tags: Set<String> = [created.entityTag]
            for round in 0..<5 {
                let user = try await users.updateUser(id: created.id, with: UserDraft(name: "Grace \(round)", email: "grace@example.com"))
                #expect(tags.insert(user.entityTag).inserted, "round \(round) has a version of its own")
            }
        }
    }

    @Test("RosterAPIDirectory sends the version it read: a change made since is a 412", arguments: Backend.allCases)
    func theDirectoryIsToldOfAChangeMadeSinceItRead(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let (mine, theirs, created) = try await changedSinceMyRead(on: server)
            do {
                _ = try await mine.updateUser(id: created.id, with: UserDraft(name: "A. Turing", email: "alan@example.com"))
                Issue.record("the second save must be refused")
            } catch let error as APIError {
                #expect(error.status == 412)
                // Said for a delete as for an edit: nothing about "your edits".
                #expect(error.errorDescription == "Someone changed this user on the server since you opened it.")
                #expect(error.recoverySuggestion == "Refresh to see the server's version, then make your change again.")
            }
            #expect(try await theirs.user(id: created.id).name == "Alan M. Turing")
            // Read again, the same change goes through.
            _ = try await mine.user(id: created.id)
            #expect(try await mine.updateUser(id: created.id, with: UserDraft(name: "A. Turing", email: "alan@example.com")).name == "A. Turing")
        }
    }

    @Test("an edit of the user as the form saw them is a 412 even after the directory read them again", arguments: Backend.allCases)
    func theFormsVersionIsTheOneSent(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let mine = server.repository()
            let original = try await mine.createUser(UserDraft(name: "Grace", email: "grace@example.com"))
            _ = try await server.repository().updateUser(id: original.id, with: UserDraft(name: "Grace H.", email: "grace@example.com"))
            // A background refresh reads the new version; the form still edits the old one.
            _ = try await mine.listUsers(UserQuery())
            do {
                _ = try await mine.updateUser(original, with: UserDraft(name: "Grace Hopper", email: "grace@example.com"))
                Issue.record("the form's save must be refused")
            } catch let error as APIError {
                #expect(error.status == 412)
            }
            #expect(try await mine.user(id: original.id).name == "Grace H.")
        }
    }

    @Test("a delete with a stale If-Match is refused with 412 and removes nothing; a current one removes", arguments: Backend.allCases)
    func staleDeleteIsRefused(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let created = try await server.repository().createUser(UserDraft(name: "Ada Lovelace", email: "ada@example.com"))
            let changed = try await server.repository().updateUser(id: created.id, with: UserDraft(name: "Ada King", email: "ada@example.com"))
            let delete: (String?) async throws -> RawAnswer = { tag in
                var headers = TestServer.jsonWithAuthorization
                if let tag { headers["If-Match"] = tag }
                return try await server.raw(.delete, "/api/v1/users/\(created.id)", headers: headers)
            }
            let stale = try await delete(created.entityTag)
            #expect(stale.status == 412)
            let body = try WireFormat.makeDecoder().decode(APIResponse<User>.self, from: stale.response.body)
            #expect(body.error?.code == "user_changed")
            #expect(try await server.repository().user(id: created.id).name == "Ada King", "nothing removed")
            let history = try await server.repository().history(ofUser: created.id)
            #expect(!history.contains { $0.action == "delete" }, "no audit entry for a refused delete")

            #expect(try await delete(#"W/"x", \#(changed.entityTag)"#).status == 200)
            // Gone: a retry of that delete is a 404, whatever version it names.
            #expect(try await delete(changed.entityTag).status == 404)
        }
    }

    @Test("RosterAPIDirectory deletes the version it read: a change made since is a 412, and after it a delete goes through", arguments: Backend.allCases)
    func theDirectorysDeleteIsToldOfAChange(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let (mine, theirs, created) = try await changedSinceMyRead(on: server)
            do {
                try await mine.deleteUser(id: created.id)
                Issue.record("the delete must be refused")
            } catch let error as APIError {
                #expect(error.status == 412)
                // Said for a delete as for an edit: nothing about "your edits".
                #expect(error.errorDescription == "Someone changed this user on the server since you opened it.")
                #expect(error.recoverySuggestion == "Refresh to see the server's version, then make your change again.")
            }
            #expect(try await theirs.user(id: created.id).name == "Alan M. Turing")
            // The refusal read the user again: deleting once more removes the version now seen.
            try await mine.deleteUser(id: created.id)
            await #expect(throws: APIError.self) { _ = try await theirs.user(id: created.id) }
        }
    }

    @Test("a 412 met by a PUT that finds the user already as it asks is that save done", arguments: Backend.allCases)
    func aRetryMeetingItsOwnChangeIsNotAConflict(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let mine = server.repository()
            let created = try await mine.createUser(UserDraft(name: "Ada", email: "ada@example.com"))
            // Someone else (or this client's lost first attempt) already wrote exactly this draft.
            let draft = UserDraft(name: "Ada Byron", email: "ada@example.com", status: .suspended)
            _ = try await server.repository().updateUser(id: created.id, with: draft)
            let saved = try await mine.updateUser(id: created.id, with: draft)
            #expect(saved.name == "Ada Byron" && saved.status == .suspended)
        }
    }

    /// Alan Turing, read by `mine` and then renamed by `theirs`: `mine` holds a stale version.
    private func changedSinceMyRead(on server: TestServer) async throws -> (mine: RosterAPIDirectory, theirs: RosterAPIDirectory, created: User) {
        let mine = server.repository()
        let theirs = server.repository()
        let created = try await theirs.createUser(UserDraft(name: "Alan Turing", email: "alan@example.com"))
        _ = try await mine.listUsers(UserQuery())
        _ = try await theirs.updateUser(id: created.id, with: UserDraft(name: "Alan M. Turing", email: "alan@example.com"))
        return (mine, theirs, created)
    }
}
