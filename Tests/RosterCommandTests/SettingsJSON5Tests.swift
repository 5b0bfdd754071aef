import Foundation
import RosterKitTestSupport
import Testing
@testable import roster

/// The settings file is read by Foundation's JSON5 reader: what the old comment stripper got
/// wrong is refused, and each error names the file, the line and the column.
@Suite("Settings file (JSON5)")
struct SettingsJSON5Tests {
    let scratch = TemporaryFolder("json5")
    var folder: String { scratch.path }

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

    /// Found by `make fuzz` (settings-file): Swift 6.3.1's JSON5 reader stops the program on a
    /// byte from F8 to FF where an unquoted key may start, with seven more bytes after it.
    @Test func aByteThatIsNotUTF8IsAnErrorNotACrash() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/roster.json"
        try Data(Array("{\n  pageSize: 20,\n  ".utf8) + [0xFF] + Array("abcdefgh: 1\n}".utf8)).write(to: URL(fileURLWithPath: path))
        let message = try #require(throws: SettingsError.self) { try SettingsFile.load(from: path) }.message
        #expect(message == "\(path):3:3: the file is not UTF-8 text; save it as UTF-8.")
    }

    /// Found reading `JSON5Places` while writing its fuzz target (the fuzzer's inputs are too short
    /// to reach it): a file of 20,000 `[` overflowed its stack, after Foundation refused it.
    @Test func deepNestingIsAnErrorNotACrash() throws {
        #expect(try error(String(repeating: "[", count: 100_000)) == "FILE:1:513: expected at most 512 lists and objects inside each other.")
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
