import Foundation
import RosterKit
import RosterKitTestSupport

extension TemporaryFolder {
    /// A folder for one CSV test's files.
    convenience init() { self.init("csv") }

    /// The import report written beside `input` (its name carries the time).
    func report(for input: String) throws -> String? {
        let base = URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent
        guard let name = names.last(where: { $0.hasPrefix("\(base).import-report-") && $0.hasSuffix(".csv") }) else { return nil }
        return try read(name)
    }
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
