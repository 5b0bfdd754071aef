import Foundation
import RosterKit

/// A fresh folder for one test's files, removed by `remove()`.
struct TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("roster-csv-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func write(_ name: String, _ text: String) throws -> String {
        let path = path(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func read(_ name: String) throws -> String {
        try String(contentsOfFile: path(name), encoding: .utf8)
    }

    var names: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() }

    /// The import report written beside `input` (its name carries the time).
    func report(for input: String) throws -> String? {
        let base = URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent
        guard let name = names.last(where: { $0.hasPrefix("\(base).import-report-") && $0.hasSuffix(".csv") }) else { return nil }
        return try read(name)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// A CSV of `count` new hires, `hire001@example.com`…, and the lines of `bad` rows replaced
/// by an invalid email and a duplicate.
func hiresCSV(count: Int, badLines: [Int: String] = [:]) -> String {
    var lines = ["name,email,role,status"]
    for number in 1...count {
        let line = number + 1
        lines.append(badLines[line] ?? "Hire \(number),hire\(String(format: "%03d", number))@example.com,member,invited")
    }
    return lines.joined(separator: "\r\n") + "\r\n"
}
