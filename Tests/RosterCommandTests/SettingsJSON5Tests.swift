import Foundation
import Testing
@testable import roster

/// The settings file is read by Foundation's JSON5 reader: what the old comment stripper got
/// wrong is refused, and each error names the file, the line and the column.
@Suite("Settings file (JSON5)")
struct SettingsJSON5Tests {
    let folder = NSTemporaryDirectory() + "roster-json5-" + UUID().uuidString

    func load(_ text: String) throws -> SettingsFile {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/roster.json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return try SettingsFile.load(from: path)
    }

    func error(_ text: String) throws -> String {
        try #require(throws: SettingsError.self) { try load(text) }.message
            .replacingOccurrences(of: folder + "/roster.json", with: "FILE")
    }

    @Test func aCommentBetweenDigitsIsAnErrorNotAnotherNumber() throws {
        // The old stripper read this as a page size of 12.
        #expect(try error(#"{ "pageSize": 1/**/2 }"#) == "FILE:1:20: expected , or } after the value of “pageSize”, not 2.")
    }

    @Test func anUnterminatedCommentIsAnErrorAtItsStart() throws {
        let text = """
            {
              "pageSize": 20, /* the rest of the file
              "colors": "never"
            }
            """
        #expect(try error(text) == "FILE:2:19: expected */ to close the comment opened here.")
    }

    @Test func aTrailingByteIsAnError() throws {
        #expect(try error("{ \"pageSize\": 20 }\n}") == "FILE:2:1: expected the end of the file after the closing } (found “}”).")
    }

    @Test func aWrongTypeNamesTheKeyAndWhereItsValueIs() throws {
        let text = """
            {
              "embedded": {
                "seedUsers": "many"
              }
            }
            """
        #expect(try error(text) == "FILE:3:18: “embedded.seedUsers” has the wrong type: expected a whole number.")
    }

    @Test func anUnknownKeySuggestsTheNearestOne() throws {
        #expect(try error("{\n  // typed in haste\n  pagesize: 20,\n}") == "FILE:3:3: “pagesize” is not a setting; did you mean “pageSize”?")
        let far = try error(#"{ "embedded": { "flavour": 1 } }"#)
        #expect(far.hasPrefix("FILE:1:17: “flavour” is not a setting in “embedded”; known: database, seedUsers, demoFaults"), "\(far)")
        #expect(KeySuggestion.nearest(to: "tokenfile", among: ConnectionSettings.CodingKeys.allCases.map(\.rawValue)) == "tokenFile")
        #expect(KeySuggestion.nearest(to: "xyz", among: ["pageSize"]) == nil)
    }

    @Test func json5ConveniencesAreRead() throws {
        let file = try load("""
            // comments, unquoted keys, single quotes, trailing commas
            { pageSize: 20, 'colors': 'never', exportColumns: ['email',], /* fine */ }
            """)
        #expect(file.connection.pageSize == 20)
        #expect(file.colors == "never")
        #expect(file.exportColumns == ["email"])
    }
}
