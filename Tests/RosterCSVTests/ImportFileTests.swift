import Foundation
import RosterKit
import Testing
@testable import RosterCSV

/// Reading an import file: every bad row named with its line and reason, before anything is sent.
@Suite("Import file")
struct ImportFileTests {
    func plan(_ text: String) throws -> ImportPlan {
        try ImportFileReader.plan(data: Data(text.utf8), path: "/tmp/users.csv")
    }

    @Test func goodRowsBecomeDraftsAndBadRowsSayWhy() throws {
        let plan = try plan("""
            name,email,role,status\r
            Ana Silva,ana@example.com,admin,active\r
            Bo,not-an-email,,\r
            Cy,cy@example.com,owner,\r
            Di,di@example.com,viewer,gone\r
            Ed,ANA@example.com,,\r
            Fay,fay@example.com\r
            ,gus@example.com,,\r
            Hal,hal@example.com,Member,Invited\r

            """)
        #expect(plan.rows.map(\.line) == [2, 3, 4, 5, 6, 7, 8, 9])
        #expect(plan.validCount == 3 && plan.badCount == 5)
        let problems = Dictionary(uniqueKeysWithValues: plan.badRows.map { ($0.line, $0.problem ?? "") })
        #expect(problems[3]?.contains("invalid email “not-an-email”") == true, "\(problems[3] ?? "")")
        #expect(problems[4]?.contains("unknown role “owner”") == true)
        #expect(problems[5]?.contains("unknown status “gone”") == true)
        #expect(problems[6] == "duplicate email: also on line 2")
        #expect(problems[7]?.hasPrefix("missing column role") == true, "\(problems[7] ?? "")")
        #expect(problems[8] == nil && plan.rows[6].draft == nil, "no name: it may update a user, not create one")
        #expect(plan.rows[0].draft == UserDraft(name: "Ana Silva", email: "ana@example.com", role: .admin, status: .active))
        #expect(plan.rows[7].draft == UserDraft(name: "Hal", email: "hal@example.com", role: .member, status: .invited))
    }

    @Test func lineNumbersCountLinesInsideQuotedFieldsAndBlankLines() throws {
        let plan = try plan("email,name\n\"a@example.com\",\"two\nlines\"\n\nb@example.com,x,extra\nc@example.com,\"=1+2\"\n")
        #expect(plan.rows.map(\.line) == [2, 5, 6])
        #expect(plan.rows[1].problem?.contains("3 fields where the header has 2") == true)
        #expect(plan.rows[2].draft?.name == "=1+2", "kept as written: the server stores text, it runs nothing")
    }

    @Test func columnsAreFoundByNameInAnyOrderAndExtraColumnsAreIgnored() throws {
        let plan = try plan("id,Email,groups,NAME,created_at\nu1,ana@example.com,Sales,Ana,2026-01-01T00:00:00Z\n")
        #expect(plan.rows.first?.draft == UserDraft(name: "Ana", email: "ana@example.com"))
    }

    @Test func aSemicolonSeparatedFileFromASpreadsheetIsReadToo() throws {
        let plan = try plan("name;email\nAna;ana@example.com\n")
        #expect(plan.rows.first?.draft?.email == "ana@example.com")
    }

    @Test func aHeaderWithoutEmailLeavesEveryRowWaitingForTheMappingAndBadBytesAreAnError() throws {
        let waiting = try plan("name,phone\nAna,555\n")
        #expect(waiting.mapping.missing != nil && waiting.rows.first?.problem == waiting.mapping.missing)
        #expect(throws: ImportFileError.self) { try ImportFileReader.plan(data: Data([0xFF, 0xFE, 0x00]), path: "/tmp/x.csv") }
        #expect(throws: ImportFileError.self) { try ImportFileReader.read(path: "/nonexistent/users.csv") }
    }

    @Test func keysAreTheSameForTheSameFileAndLineAndDifferForAnotherFile() throws {
        let text = "name,email\nAna,ana@example.com\nBo,bo@example.com\n"
        let first = try plan(text), again = try plan(text), other = try plan(text + "Cy,cy@example.com\n")
        #expect(first.idempotencyKey(for: first.rows[0]) == again.idempotencyKey(for: again.rows[0]))
        #expect(first.idempotencyKey(for: first.rows[0]) != first.idempotencyKey(for: first.rows[1]))
        #expect(first.idempotencyKey(for: first.rows[0]) != other.idempotencyKey(for: other.rows[0]))
        let key = first.idempotencyKey(for: first.rows[0])
        #expect(key.count <= 255 && key.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 0x20 })
    }

    @Test func theReportListsEveryRowInLineOrder() {
        let text = ImportReport.text([
            ImportOutcome(line: 4, email: "=cmd@example.com", kind: .failed(reason: "The server failed, \"500\".")),
            ImportOutcome(line: 2, email: "ana@example.com", kind: .created(id: "u1")),
            ImportOutcome(line: 3, email: "bo@example.com", kind: .alreadyExists(id: "u0")),
            ImportOutcome(line: 5, email: "x", kind: .invalid(reason: "Email must look like name@example.com.")),
            ImportOutcome(line: 6, email: "cy@example.com", kind: .notSent),
        ])
        #expect(text == """
            line,email,outcome,detail\r
            2,ana@example.com,created,u1\r
            3,bo@example.com,"already exists, skipped",u0\r
            4,"'=cmd@example.com",failed,"The server failed, ""500""."\r
            5,x,"invalid, not sent",Email must look like name@example.com.\r
            6,cy@example.com,not sent (stopped),run again to send it\r

            """)
    }
}
