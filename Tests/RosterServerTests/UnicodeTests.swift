import Foundation
import RosterKit
import Testing

@Suite("Unicode names")
struct UnicodeTests {
    static let names = [
        "José Müller-Łukasiewicz", "Анна Иванова", "Γιώργος Παπαδόπουλος", "محمد العلي", "דוד כהן", "अनन्या शर्मा",
        "王伟", "佐藤 花子", "김민준", "e\u{301}lodie (decomposed)", "élodie (composed)", "👩🏽‍💻 Dev", "Zoë 🇳🇴",
        "\u{202B}embedded RTL\u{202C}", "Ǆemal", "ﬁnn ligature", "İstanbul", "ß", String(repeating: "界", count: 100),
        String(repeating: "ä", count: 99) + "a\u{308}",
    ]

    @Test("names in every script come back byte for byte, from create, get, list and search", arguments: Backend.allCases)
    func roundTrip(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let users = server.repository()
            for (index, name) in Self.names.enumerated() {
                let created = try await users.createUser(UserDraft(name: name, email: "u\(index)@example.com"))
                #expect(Array(created.name.utf8) == Array(name.utf8), "create \(name)")
                let fetched = try await users.user(id: created.id)
                #expect(Array(fetched.name.utf8) == Array(name.utf8), "get \(name)")
                let searched = try await users.listUsers(UserQuery(search: "u\(index)@example.com"))
                #expect(searched.items.map { Array($0.name.utf8) } == [Array(name.utf8)], "search \(name)")
            }
            let listed = try await users.listUsers(UserQuery(perPage: 200))
            #expect(Set(listed.items.map { Array($0.name.utf8) }) == Set(Self.names.map { Array($0.utf8) }))
        }
    }

    @Test("the body's raw bytes are the UTF-8 of the name (no escaping, no normalization)", arguments: Backend.allCases)
    func rawBytes(backend: Backend) async throws {
        try await withServer(backend: backend) { server in
            let name = "e\u{301}lodie 佐藤"
            let body = try JSONSerialization.data(withJSONObject: ["name": name, "email": "e@example.com"])
            let answer = try await server.raw(.post, "/api/v1/users", headers: TestServer.jsonWithAuthorization, body: body)
            #expect(answer.status == 201)
            #expect(answer.response.body.range(of: Data(name.utf8)) != nil)
        }
    }
}
