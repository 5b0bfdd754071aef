import RosterCSV
import RosterKit

/// The review as CSV, for a cron job or a ticket: one row per finding, the leavers first,
/// with its list, the key, what differs and both sides' values. Through the export's writer
/// (`CSVField`: formula-safe, controls dropped, CRLF) into a `.part` file made 0600 and
/// renamed when complete (`CSVFileSink`), so a half report is never left at the destination.
public enum ReviewReport {
    public static let columns = [
        "list", "key", "differs",
        "source_id", "source_name", "source_email", "source_role", "source_status",
        "target_id", "target_name", "target_email", "target_role", "target_status",
    ]

    public static func row(_ finding: ReviewFindings.Finding, in list: ReviewFindings.List) -> [String] {
        func side(_ person: ReviewPerson?) -> [String] {
            guard let person else { return ["", "", "", "", ""] }
            return [person.id, person.name, person.email, person.role?.rawValue ?? "", person.status.rawValue]
        }
        return [list.rawValue, finding.key, finding.differences.joined(separator: " ")] + side(finding.source) + side(finding.target)
    }

    /// Writes the report; returns the rows written (findings).
    @discardableResult
    public static func write(_ findings: ReviewFindings, to path: String) throws(CSVFileError) -> Int {
        let sink = try CSVFileSink(destination: path)
        var rows = 0
        do {
            try sink.write(CSVField.record(columns))
            for (list, items) in findings.lists {
                var chunk = ""
                for finding in items {
                    chunk += CSVField.record(row(finding, in: list))
                    rows += 1
                    if chunk.utf8.count > 64 * 1024 {
                        try sink.write(chunk)
                        chunk = ""
                    }
                }
                if !chunk.isEmpty { try sink.write(chunk) }
            }
            try sink.finish()
        } catch {
            sink.discard()
            throw error
        }
        return rows
    }
}
