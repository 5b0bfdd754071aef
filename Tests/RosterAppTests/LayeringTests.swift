import Foundation
import Testing

/// The view models stay pure: no terminal, no transport, no storage. (DESIGN: "the models
/// never see ncurses"; "the view layer never sees URLSession, APIClient or SQL".)
@Suite("RosterApp layering")
struct LayeringTests {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/RosterApp")

    static func files() throws -> [(name: String, text: String)] {
        try FileManager.default.contentsOfDirectory(atPath: sources.path)
            .filter { $0.hasSuffix(".swift") }
            .map { ($0, try String(contentsOf: sources.appendingPathComponent($0), encoding: .utf8)) }
    }

    /// RosterCSV is the CSV format and its files (export and import), no UI and no network.
    @Test func importsOnlyRosterKitRosterCSVAndObservation() throws {
        let files = try Self.files()
        #expect(files.count > 5)
        for file in files {
            let imports = file.text.split(separator: "\n")
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.hasPrefix("//") && ($0.hasPrefix("import ") || $0.contains(" import ")) }
            for line in imports {
                #expect(["import RosterKit", "import RosterCSV", "import Observation"].contains(line), "\(file.name): \(line)")
            }
        }
    }

    @Test func namesNoTransportTerminalOrStorage() throws {
        for file in try Self.files() {
            for word in ["URLSession", "APIClient", "HTTPTransport", "ncurses", "CNCursesW", "GRDB", "SQL"] {
                #expect(!file.text.contains(word), "\(file.name) mentions \(word)")
            }
        }
    }
}
