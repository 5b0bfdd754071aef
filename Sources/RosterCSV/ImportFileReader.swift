import Foundation
import RosterKit

/// Reads an import file record by record (`CSVRecordReader`: never the whole file in memory)
/// and checks every row as the server would (`UserValidation`), plus what only the whole file
/// shows: a column missing from a record, and an email that appears twice. Nothing is sent.
///
/// The header line says which column is which (`ImportHeader`, `ImportMapping`); columns it
/// cannot place are ignored until the person maps them in the preview, and a file without an
/// email (or login) column gives rows that each say so, not an error: the preview is where
/// that is fixed.
public enum ImportFileReader {
    /// The file's header line (below Entra's `version:` line).
    public static func headers(path: String) throws(ImportFileError) -> [String] {
        let reader = try CSVRecordReader(path: path)
        guard let header = try reader.next() else { throw ImportFileError("\(path) is empty.") }
        return header.fields
    }

    /// Reads and checks the file with `mapping` (nil: as its headers say, placing the profile
    /// `attributes` the directory has).
    public static func read(path: String, mapping: ImportMapping? = nil, attributes: [UserAttribute] = []) throws(ImportFileError) -> ImportPlan {
        try plan(try CSVRecordReader(path: path), mapping: mapping, attributes: attributes)
    }

    /// The same for text in memory (tests of the format).
    public static func plan(data: Data, path: String, mapping: ImportMapping? = nil,
                            attributes: [UserAttribute] = []) throws(ImportFileError) -> ImportPlan {
        try plan(CSVRecordReader(data: data, path: path), mapping: mapping, attributes: attributes)
    }

    static func plan(_ reader: CSVRecordReader, mapping given: ImportMapping?, attributes: [UserAttribute] = []) throws(ImportFileError) -> ImportPlan {
        guard let header = try reader.next() else { throw ImportFileError("\(reader.path) is empty.") }
        let headers = header.fields.map { $0.trimmingCharacters(in: .whitespaces) }
        let mapping = given.flatMap { $0.headers == headers ? $0 : nil } ?? ImportMapping(headers: headers, attributes: attributes)
        var rows: [ImportRow] = []
        var firstLineOfKey: [String: Int] = [:]
        while let record = try reader.next() {
            guard var row = row(record, mapping: mapping) else { continue }
            if row.problem == nil {
                let key = row.email.isEmpty ? "login:" + (row.login ?? "").lowercased() : row.email.lowercased()
                if let first = firstLineOfKey[key] {
                    row.problem = "duplicate \(row.email.isEmpty ? "login" : "email"): also on line \(first)"
                } else {
                    firstLineOfKey[key] = row.line
                }
            }
            rows.append(row)
        }
        return ImportPlan(path: reader.path, mapping: mapping, rows: rows, fileHash: reader.fileHash)
    }

    /// One record as a row; nil for a blank line.
    static func row(_ record: CSVRecord, mapping: ImportMapping) -> ImportRow? {
        let fields = record.fields
        if fields.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { return nil }
        func value(_ field: ImportField) -> String? {
            guard let column = mapping.column(of: field), column < fields.count else { return nil }
            let text = FormulaGuard.restored(fields[column].trimmingCharacters(in: .whitespaces))
            return text.isEmpty ? nil : text
        }
        var row = ImportRow(line: record.line, email: value(.email) ?? "", login: value(.login))
        if mapping.has(.name) {
            row.name = value(.name)
        } else if mapping.hasName {
            let parts = [value(.firstName), value(.lastName)].compactMap { $0 }
            row.name = parts.isEmpty ? nil : parts.joined(separator: " ")
        }
        if let missing = mapping.missing {
            row.problem = missing
            return row
        }
        let count = mapping.headers.count
        if fields.count < count {
            let absent = mapping.fields[fields.count...].firstIndex { $0 != nil } ?? fields.count
            row.problem = "missing column \(mapping.headers[absent]) (\(fields.count) of \(count) fields)"
            return row
        }
        if fields.count > count {
            row.problem = "\(fields.count) fields where the header has \(count) (a separator outside quotes?)"
            return row
        }
        var problems: [String] = []
        if let text = value(.role) {
            let role = Role(rawValue: text.lowercased())
            if role.isKnown { row.role = role } else { problems.append("unknown role “\(text)”: Role must be one of \(Role.known.map(\.rawValue).joined(separator: ", ")).") }
        }
        for field in [ImportField.status, .enabled, .blockSignIn] {
            guard let text = value(field) else { continue }
            if let status = status(text, as: field) { row.status = status } else { problems.append("unknown status “\(text)” in \(field.label)") }
        }
        for attribute in mapping.attributes {
            guard let text = value(.attribute(attribute)) else { continue }
            if let problem = attributeProblem(text, attribute) { problems.append(problem) } else { row.attributes[attribute] = text }
        }
        if let text = value(.groups) {
            row.groups = text.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        } else if mapping.has(.groups) {
            row.groups = []
        }
        if let name = row.name, let problem = UserValidation.nameProblem(name) { problems.append(problem) }
        if !row.email.isEmpty || row.login == nil, let problem = UserValidation.emailProblem(row.email) {
            problems.append(row.email.isEmpty ? problem : "invalid email “\(row.email)”: \(problem)")
        }
        if let login = row.login, let problem = UserValidation.userNameProblem(login) { problems.append(problem) }
        if !problems.isEmpty { row.problem = problems.joined(separator: " ") }
        return row
    }

    /// Longer than directories take (LDAP's ub-title is 64; SCIM services vary), or with a
    /// control character: said on the row rather than refused by the server one by one.
    static func attributeProblem(_ text: String, _ attribute: UserAttribute) -> String? {
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "\(attribute.label) has a control character"
        }
        return text.count > 256 ? "\(attribute.label) is longer than 256 characters" : nil
    }

    /// A status as the templates write it: Roster's words, yes/no and true/false (`enabled`),
    /// and Entra's "Block sign in", where yes means suspended.
    static func status(_ text: String, as field: ImportField) -> Status? {
        let word = text.lowercased()
        let yes = ["yes", "true", "1", "y"].contains(word), no = ["no", "false", "0", "n"].contains(word)
        switch field {
        case .blockSignIn: return yes ? .suspended : no ? .active : nil
        case .enabled: return yes ? .active : no ? .suspended : nil
        default:
            if yes { return .active }
            if no { return .suspended }
            let status = Status(rawValue: word == "enabled" ? "active" : word == "disabled" ? "suspended" : word)
            return status.isKnown ? status : nil
        }
    }
}

public struct ImportFileError: Error, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
