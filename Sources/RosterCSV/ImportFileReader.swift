import Foundation
import RosterKit
import SwiftCSV

/// Reads an import file with SwiftCSV and checks every record as the server would
/// (`UserValidation`), plus what only the whole file shows: a column missing from a record,
/// and an email that appears twice. Nothing is sent.
///
/// The header names the columns, in any order and case: `name` and `email` are required,
/// `role` and `status` optional (empty means the server's default), anything else (an
/// export's `id`, `groups`, `created_at`…) is ignored, so an exported file imports as is.
public enum ImportFileReader {
    public static let requiredColumns = ["name", "email"]
    public static let optionalColumns = ["role", "status"]

    public static func read(path: String) throws(ImportFileError) -> ImportPlan {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ImportFileError(FileManager.default.fileExists(atPath: path) ? "Cannot read \(path)." : "There is no file \(path).")
        }
        return try plan(data: data, path: path)
    }

    public static func plan(data: Data, path: String) throws(ImportFileError) -> ImportPlan {
        guard let text = String(data: data, encoding: .utf8) else {
            throw ImportFileError("\(path) is not UTF-8 text; save it as “CSV UTF-8”.")
        }
        let records: [[String]]
        let header: [String]
        do {
            // The header only (rowLimit 0 parses no data rows), then every record with its own
            // field count: the library's table view pads short rows, hiding a missing column.
            let csv = try EnumeratedCSV(string: text, delimiter: CSVDelimiter.guessed(string: text), loadColumns: false, rowLimit: 0)
            header = csv.header
            var collected: [[String]] = []
            try csv.enumerateAsArray(startAt: 1, rowLimit: nil) { collected.append($0) }
            records = collected
        } catch {
            throw ImportFileError("\(path) is not valid CSV: \(error)")
        }
        return try plan(header: header, records: records, path: path, fileHash: StableHash.hex(data))
    }

    static func plan(header rawHeader: [String], records: [[String]], path: String, fileHash: String) throws(ImportFileError) -> ImportPlan {
        let header = rawHeader.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        var index: [String: Int] = [:]
        for (position, name) in header.enumerated() where requiredColumns.contains(name) || optionalColumns.contains(name) {
            guard index[name] == nil else { throw ImportFileError("The header names the column “\(name)” twice.") }
            index[name] = position
        }
        let missing = requiredColumns.filter { index[$0] == nil }
        guard missing.isEmpty else {
            throw ImportFileError("The first line must name the columns, with at least name and email; "
                + "it has no \(missing.joined(separator: " or ")) (found: \(rawHeader.joined(separator: ", "))).")
        }

        var rows: [ImportRow] = []
        var firstLineOfEmail: [String: Int] = [:]
        var line = 1 + lineBreaks(in: rawHeader)
        for fields in records {
            line += 1
            defer { line += lineBreaks(in: fields) }
            if fields.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { continue }
            func field(_ name: String) -> String? {
                index[name].flatMap { $0 < fields.count ? fields[$0] : nil }
            }
            var row = ImportRow(line: line, name: field("name") ?? "", email: field("email") ?? "")
            if fields.count < header.count {
                let absent = header[fields.count...].first { index[$0] != nil } ?? header[fields.count]
                row.problem = "missing column \(absent) (\(fields.count) of \(header.count) fields)"
            } else if fields.count > header.count {
                row.problem = "\(fields.count) fields where the header has \(header.count) (a comma outside quotes?)"
            } else {
                let draft = UserValidation.normalized(UserDraft(
                    name: row.name, email: row.email,
                    role: field("role").flatMap(optionValue).map(Role.init(rawValue:)),
                    status: field("status").flatMap(optionValue).map(Status.init(rawValue:))))
                if let problem = problem(in: draft) {
                    row.problem = problem
                } else if let first = firstLineOfEmail[draft.email.lowercased()] {
                    row.problem = "duplicate email: also on line \(first)"
                } else {
                    firstLineOfEmail[draft.email.lowercased()] = line
                    row.draft = draft
                }
            }
            rows.append(row)
        }
        return ImportPlan(path: path, rows: rows, fileHash: fileHash)
    }

    /// The draft's problems as one sentence, naming a bad role or status as written.
    private static func problem(in draft: UserDraft) -> String? {
        let problems = UserValidation.problems(in: draft)
        guard !problems.isEmpty else { return nil }
        return problems.map { problem in
            switch problem.field {
            case "role": "unknown role “\(draft.role?.rawValue ?? "")”: \(problem.message)"
            case "status": "unknown status “\(draft.status?.rawValue ?? "")”: \(problem.message)"
            case "email" where !draft.email.isEmpty: "invalid email “\(draft.email)”: \(problem.message)"
            default: problem.message
            }
        }.joined(separator: " ")
    }

    /// An empty role or status means "the server's default"; values compare in lower case.
    private static func optionValue(_ text: String) -> String? {
        let value = text.trimmingCharacters(in: .whitespaces).lowercased()
        return value.isEmpty ? nil : value
    }

    /// Line breaks inside the fields of one record (a quoted field may span lines): the next
    /// record starts that many lines further down. SwiftCSV breaks records at LF, CR and CRLF.
    private static func lineBreaks(in fields: [String]) -> Int {
        fields.reduce(0) { count, field in count + field.count { $0 == "\n" || $0 == "\r" || $0 == "\r\n" } }
    }
}

public struct ImportFileError: Error, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
