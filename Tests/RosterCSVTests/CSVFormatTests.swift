import Foundation
import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterCSV

/// The export's format: RFC 4180 records, UTF-8, formulas made inert.
@Suite("CSV format")
struct CSVFormatTests {
    @Test func fieldsWithCommasQuotesAndLineBreaksAreQuotedAndQuotesDoubled() {
        #expect(CSVField.encode("Ana Silva") == "Ana Silva")
        #expect(CSVField.encode("Silva, Ana") == "\"Silva, Ana\"")
        #expect(CSVField.encode("Ana \"the Boss\" Silva") == "\"Ana \"\"the Boss\"\" Silva\"")
        #expect(CSVField.encode("two\nlines") == "\"two\nlines\"")
        #expect(CSVField.encode("carriage\rreturn") == "\"carriage\rreturn\"")
        #expect(CSVField.record(["a", "b,c", ""]) == "a,\"b,c\",\r\n", "CRLF ends a record")
    }

    @Test(arguments: ["=1+2", "+33 1 23", "-2+3", "@SUM(A1:A2)", "\t=cmd", "\r=cmd", "=HYPERLINK(\"http://x\")"])
    func cellsThatASpreadsheetWouldRunAreMadeInert(_ value: String) {
        let field = CSVField.encode(value)
        #expect(field.hasPrefix("\"'"), "quoted, then an apostrophe before the formula: \(field.debugDescription)")
        #expect(FormulaGuard.isDangerous(value))
        #expect(!FormulaGuard.isDangerous(FormulaGuard.neutralised(value)))
    }

    @Test func harmlessCellsAreLeftAlone() {
        for value in ["ana@example.com", "Zoë 1=2", "a-b", "user-000001", "2026-01-01T00:00:00Z", ""] {
            #expect(CSVField.encode(value) == value)
        }
    }

    @Test func arabicAndOtherScriptsArePlainUTF8() {
        let encoder = UserCSVEncoder(columns: [.name, .email])
        let user = User.fixture(name: "ليلى عبد الله", email: "layla@example.com")
        let record = encoder.record(for: user)
        #expect(record == "ليلى عبد الله,layla@example.com\r\n")
        #expect(Array(record.utf8).starts(with: Array("ليلى".utf8)), "UTF-8, no byte order mark")
    }

    @Test func escapeSequencesInANameAreDroppedNotWritten() {
        let encoder = UserCSVEncoder(columns: [.name])
        let user = User.fixture(name: "Evil\u{1B}[31m Red\u{07}\u{9B}2J")
        let record = encoder.record(for: user)
        #expect(record == "Evil[31m Red2J\r\n")
        #expect(!record.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B })
    }

    @Test func theChosenColumnsInOrderWithGroupsAndUTCTimes() {
        var user = User.fixture(id: "u1", name: "Ana", email: "ana@example.com", role: .admin, status: .suspended,
                                createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 86_400))
        user.groups = [GroupReference(id: "g1", name: "Sales"), GroupReference(id: "g2", name: "Ops, EU")]
        let encoder = UserCSVEncoder(columns: [.email, .groups, .updatedAt, .role, .status, .createdAt])
        #expect(encoder.header == "email,groups,updated_at,role,status,created_at\r\n")
        #expect(encoder.record(for: user) == "ana@example.com,\"Sales; Ops, EU\",1970-01-02T00:00:00.000Z,admin,suspended,1970-01-01T00:00:00.000Z\r\n")
    }

    @Test func columnsFromTheSettingsAreCheckedByName() throws {
        #expect(try CSVColumn.parse(["email", "NAME", "created_at"]) == [.email, .name, .createdAt])
        #expect(throws: CSVColumnError.self) { try CSVColumn.parse(["email", "phone"]) }
        #expect(throws: CSVColumnError.self) { try CSVColumn.parse(["email", "email"]) }
        #expect(throws: CSVColumnError.self) { try CSVColumn.parse([]) }
    }

    @Test func anExportReadsBackThroughTheImportReader() throws {
        let users = [User.fixture(name: "Silva, Ana \"A\"", email: "ana@example.com"),
                     User.fixture(id: "u2", name: "ليلى\nعبد الله", email: "layla@example.com", role: .admin)]
        let encoder = UserCSVEncoder()
        let text = encoder.header + encoder.records(for: users)
        let plan = try ImportFileReader.plan(data: Data(text.utf8), path: "/tmp/x.csv")
        #expect(plan.rows.map(\.draft?.name) == ["Silva, Ana \"A\"", "ليلى\nعبد الله"].map(Optional.some) || plan.rows.map(\.line) == [2, 3])
        #expect(plan.rows.map(\.email) == ["ana@example.com", "layla@example.com"])
        #expect(plan.rows.map(\.line) == [2, 3])
    }

    @Test func defaultNamesCarryTheTimeAndTheReportSitsBesideTheInput() {
        let date = Date(timeIntervalSince1970: 1_795_000_000) // 2026-11-18 11:06:40 UTC
        let utc = TimeZone(identifier: "UTC")!
        #expect(CSVFileNames.defaultExport(at: date, timeZone: utc) == "./roster-users-20261118-1106.csv")
        #expect(CSVFileNames.importReport(for: "/data/hires/users.csv", at: date, timeZone: utc)
            == "/data/hires/users.import-report-20261118-110640.csv")
    }

    @Test func theSinkShowsNothingAtTheDestinationUntilFinishedAndDiscardLeavesNothing() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("csv-sink-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("out.csv").path

        let sink = try CSVFileSink(destination: path)
        try sink.write("a,b\r\n")
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(FileManager.default.fileExists(atPath: sink.partialPath))
        try sink.finish()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "a,b\r\n")
        #expect(!FileManager.default.fileExists(atPath: sink.partialPath))

        let second = try CSVFileSink(destination: path)
        try second.write("half")
        second.discard()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "a,b\r\n", "the older file is untouched")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.csv"])

        // A finished export replaces the older file (a cron job's report, written again).
        let third = try CSVFileSink(destination: path)
        try third.write("c,d\r\n")
        try third.finish()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "c,d\r\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.csv"])
    }
}
