import Foundation
import PropertyBased
import RosterKit
import RosterKitTestSupport
import Testing

/// A PATCH applied by the server equals the same change made by hand and sent with PUT: the
/// same answer (status, and the resource but for `meta`), or the same refusal, for any
/// sequence of changes with any Unicode in them.
@Suite("SCIM PATCH properties: the same as the change made with PUT", .timeLimit(.minutes(5)))
struct SCIMPatchPropertyTests {
    /// One change, as a PATCH operation and as the edit it makes to the resource.
    enum Change: Sendable, CustomStringConvertible {
        case displayName(String), givenName(String), removeFamilyName, active(Bool), title(String?)
        case workEmail(String), nickNameWithoutPath(String), department(String), addPhone(String)

        var description: String { String(describing: operation) }

        var operation: JSONValue {
            func op(_ kind: String, _ path: String?, _ value: JSONValue?) -> JSONValue {
                var members: [String: JSONValue] = ["op": .string(kind)]
                if let path { members["path"] = .string(path) }
                if let value { members["value"] = value }
                return .object(members)
            }
            return switch self {
            case .displayName(let text): op("replace", "displayName", .string(text))
            case .givenName(let text): op("replace", "name.givenName", .string(text))
            case .removeFamilyName: op("remove", "name.familyName", nil)
            case .active(let flag): op("replace", "active", .bool(flag))
            case .title(let text?): op("add", "title", .string(text))
            case .title(nil): op("remove", "title", nil)
            case .workEmail(let email): op("replace", #"emails[type eq "work"].value"#, .string(email))
            case .nickNameWithoutPath(let text): op("replace", nil, .object(["nickName": .string(text)]))
            case .department(let text): op("replace", SCIMSchemas.enterpriseUser + ":department", .string(text))
            case .addPhone(let text): op("add", "phoneNumbers", .array([.object(["value": .string(text), "type": .string("work")])]))
            }
        }

        /// The change made by hand to a resource's members.
        func apply(to resource: inout [String: JSONValue]) {
            switch self {
            case .displayName(let text): resource["displayName"] = .string(text)
            case .givenName(let text): resource["name"] = .object((resource["name"]?.objectValue ?? [:]).merging(["givenName": .string(text)]) { $1 })
            case .removeFamilyName: resource["name"] = (resource["name"]?.objectValue).map { .object($0.filter { $0.key != "familyName" }) }
            case .active(let flag): resource["active"] = .bool(flag)
            case .title(let text): resource["title"] = text.map(JSONValue.string)
            case .workEmail(let email):
                resource["emails"] = .array((resource["emails"]?.arrayValue ?? []).map { entry in
                    guard var fields = entry.objectValue, fields["type"] == .string("work") else { return entry }
                    fields["value"] = .string(email)
                    return .object(fields)
                })
            case .nickNameWithoutPath(let text): resource["nickName"] = .string(text)
            case .department(let text):
                var enterprise = resource[SCIMSchemas.enterpriseUser]?.objectValue ?? [:]
                enterprise["department"] = .string(text)
                resource[SCIMSchemas.enterpriseUser] = .object(enterprise)
            case .addPhone(let text):
                resource["phoneNumbers"] = .array((resource["phoneNumbers"]?.arrayValue ?? []) + [.object(["value": .string(text), "type": .string("work")])])
            }
        }
    }

    static let change = Generator<Change, Shrink.None<Change>> { random in
        func text() -> String {
            // Mostly text a directory holds, sometimes anything (which both must refuse alike).
            Int.random(in: 0..<3, using: &random) == 0 ? AnyText.string(using: &random) : "Name \(Int.random(in: 0...999, using: &random)) é 佐藤"
        }
        return switch Int.random(in: 0..<9, using: &random) {
        case 0: .displayName(text())
        case 1: .givenName(text())
        case 2: .removeFamilyName
        case 3: .active(Bool.random(using: &random))
        case 4: .title(Bool.random(using: &random) ? text() : nil)
        case 5: .workEmail(Bool.random(using: &random) ? "new\(Int.random(in: 0...999, using: &random))@work.example" : text())
        case 6: .nickNameWithoutPath(text())
        case 7: .department(text())
        default: .addPhone(text())
        }
    }

    /// The stored user every case starts from (its userName and email made unique per case).
    static func base(_ number: Int) -> [String: JSONValue] {
        [
            "schemas": .array([.string(SCIMSchemas.user), .string(SCIMSchemas.enterpriseUser)]),
            "userName": .string("prop\(number)@example.org"),
            "displayName": .string("Prop \(number)"),
            "name": .object(["givenName": .string("Prop"), "familyName": .string("Erty")]),
            "emails": .array([
                .object(["value": .string("prop\(number)@example.org"), "type": .string("work"), "primary": .bool(true)]),
                .object(["value": .string("prop\(number)@home.example"), "type": .string("home")]),
            ]),
            "active": .bool(true),
            SCIMSchemas.enterpriseUser: .object(["department": .string("R&D")]),
        ]
    }

    @Test func patchEqualsPut() async throws {
        try await withServer(backend: .sqlite) { server in
            let counter = Counter()
            await propertyCheck(count: 30, input: Self.change.array(of: 1...5)) { changes in
                let number = await counter.next()
                let created = try await server.scim(.post, "/Users", Self.text(.object(Self.base(number))))
                #expect(created.status == 201, "\(created.text)")
                let id = try #require(Self.json(created)?[attribute: "id"]?.stringValue)

                let patch = JSONValue.object(["schemas": .array([.string(SCIMSchemas.patchOp)]), "Operations": .array(changes.map(\.operation))])
                let patched = try await server.scim(.patch, "/Users/\(id)", Self.text(patch))
                var expected = Self.base(number)
                for change in changes { change.apply(to: &expected) }
                let put = try await server.scim(.put, "/Users/\(id)", Self.text(.object(expected)))

                #expect(patched.status == put.status, "\(changes): PATCH \(patched.text), PUT \(put.text)")
                if patched.status == 200 {
                    #expect(Self.withoutMeta(patched) == Self.withoutMeta(put), "\(changes): PATCH \(patched.text), PUT \(put.text)")
                } else {
                    #expect(patched.scimType == put.scimType, "\(changes): PATCH \(patched.text), PUT \(put.text)")
                }
            }
        }
    }

    private actor Counter {
        private var value = 0
        func next() -> Int { value += 1; return value }
    }

    private static func text(_ value: JSONValue) -> String {
        String(decoding: (try? JSONEncoder().encode(value)) ?? Data(), as: UTF8.self)
    }

    private static func json(_ answer: RawAnswer) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: answer.response.body)
    }

    private static func withoutMeta(_ answer: RawAnswer) -> JSONValue? {
        guard var members = json(answer)?.objectValue else { return nil }
        members["meta"] = nil
        return .object(members)
    }
}
