import Foundation
import NIOConcurrencyHelpers
import RosterCSV
import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterApp

/// The access review's matching and folding over in-memory directories: which person lands
/// in which list, keys folded as the directories fold them, and the report's rows.
@Suite("Access review: matching and folding")
struct AccessReviewTests {
    static func person(_ key: String, id: String = "", name: String = "N", email: String? = nil,
                       role: Role? = .member, status: Status = .active) -> ReviewPerson {
        ReviewPerson(key: ReviewFold.key(key), id: id.isEmpty ? key : id, name: name, email: email ?? key, role: role, status: status)
    }

    @Test func foldsCaseSpacesAndCompatibilityFormsAsTheDirectoriesDo() {
        #expect(ReviewFold.key("Ana.Silva@Example.COM") == "ana.silva@example.com")
        #expect(ReviewFold.key("  ana@example.com ") == "ana@example.com")
        let plain = "ana@example.com"
        #expect(ReviewFold.key(plain) == plain)
        // German sharp s folds to ss (full case folding, as LDAP's caseIgnoreMatch).
        #expect(ReviewFold.key("STRAẞE@example.com") == ReviewFold.key("strasse@example.com"))
        // Full-width letters (NFKC) and a decomposed é (NFC) match their plain forms.
        #expect(ReviewFold.key("ＡＮＡ@example.com") == "ana@example.com")
        #expect(ReviewFold.key("Jose\u{301}") == ReviewFold.key("José"))
        // Greek final sigma and capital sigma are one letter folded.
        #expect(ReviewFold.key("ΟΔΥΣΣΕΥΣ") == ReviewFold.key("οδυσσευς"))
        #expect(ReviewFold.key("a \t  b") == "a b")
        // Different letters stay different.
        #expect(ReviewFold.key("ana@example.com") != ReviewFold.key("anna@example.com"))
    }

    @Test func namesCompareCanonicallyButCaseCounts() {
        #expect(ReviewFold.sameName("José", "Jose\u{301}"))
        #expect(ReviewFold.sameName("Ana  Silva ", "Ana Silva"))
        #expect(!ReviewFold.sameName("Ana Silva", "ana silva"))
    }

    @Test func everyListGetsExactlyItsPeople() {
        let source = [
            Self.person("stays@x.org", name: "Stays"),
            Self.person("left@x.org", name: "Left", status: .suspended),
            Self.person("left-gone@x.org", name: "Gone too", status: .suspended),
            Self.person("new@x.org", name: "New"),
            Self.person("renamed@x.org", name: "New Name"),
            Self.person("promoted@x.org", name: "P", role: .admin),
            Self.person("Case@X.org", name: "Case"),
        ]
        let target = [
            Self.person("stays@x.org", id: "t1", name: "Stays"),
            Self.person("left@x.org", id: "t2", name: "Left"),
            Self.person("left-gone@x.org", id: "t3", name: "Gone too", status: .suspended),
            Self.person("orphan@x.org", id: "t4", name: "Orphan"),
            Self.person("orphan-off@x.org", id: "t5", name: "Orphan off", status: .suspended),
            Self.person("renamed@x.org", id: "t6", name: "Old Name"),
            Self.person("promoted@x.org", id: "t7", name: "P", role: .member),
            Self.person("case@x.org", id: "t8", name: "Case", email: "case@x.org"),
        ]
        let findings = AccessReview.compare(source: source, target: target, compareRoles: true)
        #expect(findings.leavers.map(\.target?.id) == ["t2", "t4"])
        #expect(findings.leavers.first?.source?.name == "Left")
        #expect(findings.leavers.last?.source == nil)
        #expect(findings.onlyInTarget.map(\.target?.id) == ["t5", "t4"]) // "-" sorts before "@"
        #expect(findings.onlyInSource.map(\.source?.id) == ["new@x.org"])
        #expect(findings.drift.map(\.target?.id) == ["t7", "t6"])
        #expect(findings.drift.map(\.differences) == [["role"], ["name"]])
        #expect(findings.matched == 6)
        // Without roles on one side, a role is never drift.
        let noRoles = AccessReview.compare(source: source, target: target, compareRoles: false)
        #expect(noRoles.drift.map(\.target?.id) == ["t6"])
    }

    @Test func aDuplicateKeyInTheSourceCountsItsActivePerson() {
        let source = [Self.person("dup@x.org", id: "s1", status: .suspended), Self.person("dup@x.org", id: "s2")]
        let target = [Self.person("dup@x.org", id: "t1")]
        let findings = AccessReview.compare(source: source, target: target, compareRoles: true)
        #expect(findings.leavers.isEmpty)
        #expect(findings.sourceDuplicates == 1)
        #expect(findings.onlyInSource.isEmpty)
    }

    @Test func peopleWithoutAKeyMatchNobody() {
        let source = [Self.person("", id: "s1")]
        let target = [Self.person("", id: "t1")]
        let findings = AccessReview.compare(source: source, target: target, compareRoles: true)
        #expect(findings.onlyInSource.map(\.source?.id) == ["s1"])
        #expect(findings.onlyInTarget.map(\.target?.id) == ["t1"])
        #expect(findings.leavers.map(\.target?.id) == ["t1"])
    }

    @Test func readsBothInMemoryDirectoriesWithProgressAndMatchesByLogin() async throws {
        var hr = User.fixture(id: "h1", name: "Ana", email: "ana@hr.example", status: .suspended)
        hr.scim = SCIMDetails(userName: "ANA")
        var saas = User.fixture(id: "s1", name: "Ana", email: "ana@saas.example", status: .active)
        saas.scim = SCIMDetails(userName: "ana")
        let source = InMemoryDirectory(users: [hr] + (1...450).map { User.fixture(number: $0) })
        let target = InMemoryDirectory(users: [saas] + (1...450).map { User.fixture(number: $0) })
        await target.hideTotals()
        let seen = Counter()
        let outcome = try await AccessReview.run(
            source: ReviewSide(directory: source, key: .login), target: ReviewSide(directory: target, key: .login)) { side, progress in
            seen.add(side, progress)
        }
        // By login: Ana matches across different emails, and is a leaver; the fixtures have no
        // login, so they match nobody.
        let ana = try #require(outcome.findings.leavers.first { $0.key == "ana" })
        #expect(ana.target?.id == "s1" && ana.source?.id == "h1")
        #expect(outcome.findings.onlyInTarget.count == 450 && outcome.findings.onlyInSource.count == 450)
        #expect(outcome.findings.drift.first { $0.target?.id == "s1" }?.differences == ["email"])
        #expect(outcome.source.done == 451 && outcome.target.done == 451)
        #expect(outcome.source.requests == 3 && outcome.target.requests == 3)
        #expect(seen.pages(.source) == 4 && seen.pages(.target) == 4) // three pages and the end
        #expect(seen.lastTotalKnown(.target) == true)
    }

    @Test func theReportHasOneRowAFindingTheLeaversFirstAndIsPrivate() throws {
        let source = [Self.person("left@x.org", name: "=cmd|' /C calc'!A0", status: .suspended), Self.person("only@x.org")]
        let target = [Self.person("left@x.org", id: "t1", name: "Left"), Self.person("orphan@x.org", id: "t2", status: .suspended)]
        let findings = AccessReview.compare(source: source, target: target, compareRoles: true)
        let folder = NSTemporaryDirectory() + "roster-review-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/review.csv"
        #expect(try ReviewReport.write(findings, to: path) == 4)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        try #require(lines.count == 5)
        #expect(lines[0].hasPrefix("list,key,differs,source_id"))
        #expect(lines[1].hasPrefix("leavers,left@x.org,,left@x.org,\"'=cmd|' /C calc'!A0\""))
        #expect(lines[2].hasPrefix("only-in-target,orphan@x.org,,,,,,,t2"))
        #expect(lines[3].hasPrefix("only-in-source,only@x.org"))
        #expect(lines[4].hasPrefix("drift,left@x.org,name,"))
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }
}

/// What the progress callbacks said, by side.
final class Counter: Sendable {
    private let state = NIOLockedValueBox<[ReviewSide.Position: [WorkProgress]]>([:])
    func add(_ side: ReviewSide.Position, _ progress: WorkProgress) { state.withLockedValue { $0[side, default: []].append(progress) } }
    func pages(_ side: ReviewSide.Position) -> Int { state.withLockedValue { $0[side]?.count ?? 0 } }
    func lastTotalKnown(_ side: ReviewSide.Position) -> Bool? { state.withLockedValue { $0[side]?.last?.isTotalKnown } }
}
