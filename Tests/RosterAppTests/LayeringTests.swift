import Foundation
import Testing

/// The layers stay apart, checked in every Swift file of a folder and of all its subfolders.
/// The view models (Sources/RosterApp) import only the model modules (RosterJournal's types
/// included) and name no terminal, transport or storage, so they run and are tested without
/// any of them. The TUI's views
/// (Sources/RosterTUI/Views) draw the plain view data the presenter makes and import no model
/// module, so a change to a wire type or a model stops at the presenter.
@Suite("Layering")
struct LayeringTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    struct SourceFile {
        /// From the package's root, e.g. "Sources/RosterApp/Bulk/BulkRun.swift".
        var path: String
        var text: String
    }

    struct NoSwiftFiles: Error, CustomStringConvertible {
        var folder: String
        var description: String { "no Swift file under \(folder): was it moved? The layering check would check nothing" }
    }

    /// Every Swift file under `folder` (from the package's root), subfolders included. Throws
    /// when there is none, so a check cannot pass by reading nothing after a move.
    static func swiftFiles(under folder: String) throws -> [SourceFile] {
        try swiftFiles(under: root.appendingPathComponent(folder))
    }

    static func swiftFiles(under folder: URL) throws -> [SourceFile] {
        let urls = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        guard !urls.isEmpty else { throw NoSwiftFiles(folder: folder.path) }
        let rootPath = root.standardizedFileURL.path + "/"
        return try urls.map { url in
            let path = url.standardizedFileURL.path
            return SourceFile(path: path.hasPrefix(rootPath) ? String(path.dropFirst(rootPath.count)) : path,
                              text: try String(contentsOf: url, encoding: .utf8))
        }
    }

    /// The modules `text` imports, in every form: `import X`, `@testable import X`,
    /// `public import X`, `import struct X.Y`, an import inside `#if`.
    static func importedModules(in text: String) -> [String] {
        let modifiers: Set<Substring> = ["public", "package", "internal", "fileprivate", "private"]
        let kinds: Set<Substring> = ["struct", "class", "enum", "protocol", "typealias", "func", "let", "var"]
        return text.split(separator: "\n").compactMap { line in
            var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })[...]
            while let first = words.first, first.hasPrefix("@") || modifiers.contains(first) { words.removeFirst() }
            guard words.first == "import", words.count >= 2 else { return nil }
            let path = words.count >= 3 && kinds.contains(words[words.startIndex + 1]) ? words[words.startIndex + 2] : words[words.startIndex + 1]
            return path.split(separator: ".").first.map(String.init)
        }
    }

    @Test func theViewModelsImportOnlyTheModelModules() throws {
        let files = try Self.swiftFiles(under: "Sources/RosterApp")
        #expect(files.count > 5)
        for file in files {
            for module in Self.importedModules(in: file.text) {
                #expect(["RosterKit", "RosterCSV", "RosterJournal", "Observation"].contains(module), "\(file.path) imports \(module)")
            }
        }
    }

    @Test func theViewModelsNameNoTransportTerminalOrStorage() throws {
        for file in try Self.swiftFiles(under: "Sources/RosterApp") {
            for word in ["URLSession", "APIClient", "HTTPTransport", "ncurses", "CNCursesW", "GRDB", "SQL"] {
                #expect(!file.text.contains(word), "\(file.path) mentions \(word)")
            }
        }
    }

    @Test func theTUIViewsImportNoModelModule() throws {
        let files = try Self.swiftFiles(under: "Sources/RosterTUI/Views")
        #expect(files.count > 5)
        for file in files {
            for module in Self.importedModules(in: file.text) {
                #expect(!["RosterKit", "RosterApp", "RosterCSV"].contains(module), "\(file.path) imports \(module)")
            }
        }
    }

    @Test func everyFormOfImportIsSeen() {
        let text = """
            import RosterKit
            @testable import RosterApp
            public import RosterCSV
            import struct Foundation.Date
            #if canImport(Glibc)
                import Glibc
            #endif
            // import Commented
            let text = "nothing to import here"
            """
        #expect(Self.importedModules(in: text) == ["RosterKit", "RosterApp", "RosterCSV", "Foundation", "Glibc"])
    }

    @Test func aMissingOrEmptyFolderFailsTheCheckAndSubfoldersAreRead() throws {
        #expect(throws: NoSwiftFiles.self) { try Self.swiftFiles(under: "Sources/NoSuchFolder") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("layering-\(UUID().uuidString)")
        let deep = folder.appendingPathComponent("Sub/Deeper")
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: NoSwiftFiles.self) { try Self.swiftFiles(under: folder) }

        try "import RosterKit\n".write(to: deep.appendingPathComponent("Deep.swift"), atomically: true, encoding: .utf8)
        let files = try Self.swiftFiles(under: folder)
        #expect(files.map { URL(fileURLWithPath: $0.path).lastPathComponent } == ["Deep.swift"])
        #expect(files.map { Self.importedModules(in: $0.text) } == [["RosterKit"]])
    }
}
