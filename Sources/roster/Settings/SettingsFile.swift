import Foundation
import RosterKit

/// What a configuration file may say (Config/roster.json documents each key and its
/// default). JSON5: comments, trailing commas and unquoted keys are allowed. Every key is
/// optional; an unknown key is an error, so a typo is not ignored.
struct SettingsFile: Decodable, Equatable {
    /// The connection keys at the top level: the connection when no profile is chosen, and
    /// the defaults each profile overrides.
    var connection = ConnectionSettings()
    var colors: String?
    var mouse: Bool?
    var scrolling: String?
    var exportColumns: [String]?
    var logFile: String?
    var logLevel: String?
    var journal: Bool?
    var journalDays: Int?
    var journalEntries: Int?
    /// Named connections (profiles), each with the keys of `ConnectionSettings`.
    var connections: [String: ConnectionSettings] = [:]
    /// The profile opened when neither --profile nor ROSTER_PROFILE names one.
    var defaultProfile: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case colors, mouse, scrolling, exportColumns, logFile, logLevel, connections, journal, journalDays, journalEntries
        case defaultProfile = "default"
    }

    /// Every key the top level may have.
    static let topLevelKeys = ConnectionSettings.CodingKeys.allCases.map(\.rawValue) + CodingKeys.allCases.map(\.rawValue)

    init() {}

    init(from decoder: any Decoder) throws {
        try Self.rejectUnknownKeys(in: decoder, known: Self.topLevelKeys)
        connection = try ConnectionSettings(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        colors = try container.decodeIfPresent(String.self, forKey: .colors)
        mouse = try container.decodeIfPresent(Bool.self, forKey: .mouse)
        scrolling = try container.decodeIfPresent(String.self, forKey: .scrolling)
        exportColumns = try container.decodeIfPresent([String].self, forKey: .exportColumns)
        logFile = try container.decodeIfPresent(String.self, forKey: .logFile)
        logLevel = try container.decodeIfPresent(String.self, forKey: .logLevel)
        journal = try container.decodeIfPresent(Bool.self, forKey: .journal)
        journalDays = try container.decodeIfPresent(Int.self, forKey: .journalDays)
        journalEntries = try container.decodeIfPresent(Int.self, forKey: .journalEntries)
        defaultProfile = try container.decodeIfPresent(String.self, forKey: .defaultProfile)
        let hasConnections = try container.contains(.connections) ? !container.decodeNil(forKey: .connections) : false
        if hasConnections {
            let profiles = try container.nestedContainer(keyedBy: AnyKey.self, forKey: .connections)
            for name in profiles.allKeys {
                let profile = try profiles.superDecoder(forKey: name)
                try Self.rejectUnknownKeys(in: profile, known: ConnectionSettings.CodingKeys.allCases.map(\.rawValue))
                connections[name.stringValue] = try ConnectionSettings(from: profile)
            }
        }
    }

    /// Reads a settings file; the error names the file, the line and column, and what is
    /// wrong there.
    static func load(from path: String) throws -> SettingsFile {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw SettingsError("Cannot read the configuration file \(path): \(error.localizedDescription)")
        }
        if let place = JSON5Places.invalidUTF8(in: data) {
            throw SettingsError("\(path):\(place): the file is not UTF-8 text; save it as UTF-8.")
        }
        let decoder = JSONDecoder()
        decoder.allowsJSON5 = true
        do {
            return try decoder.decode(SettingsFile.self, from: data)
        } catch let error as UnknownKey {
            let places = JSON5Places(String(decoding: data, as: UTF8.self))
            let place = places.keys[(error.path + [error.key]).joined(separator: ".")].map { ":\($0)" } ?? ""
            throw SettingsError("\(path)\(place): \(error.message)")
        } catch let DecodingError.typeMismatch(type, context) {
            throw wrongType(type, at: context.codingPath, in: data, path: path)
        } catch let DecodingError.valueNotFound(type, context) {
            throw wrongType(type, at: context.codingPath, in: data, path: path)
        } catch {
            let places = JSON5Places(String(decoding: data, as: UTF8.self))
            guard let problem = places.problem else {
                throw SettingsError("\(path) is not valid JSON5.")
            }
            throw SettingsError("\(path):\(problem.place): expected \(problem.expected).")
        }
    }

    private static func wrongType(_ type: Any.Type, at codingPath: [any CodingKey], in data: Data, path: String) -> SettingsError {
        let keyPath = codingPath.map { key in key.intValue.map { String($0) } ?? key.stringValue }
        let key = keyPath.joined(separator: ".")
        let place = JSON5Places(String(decoding: data, as: UTF8.self)).values[key].map { ":\($0)" } ?? ""
        let expected = switch type {
        case is String.Type: "a string in quotes"
        case is Int.Type: "a whole number"
        case is Double.Type: "a number"
        case is Bool.Type: "true or false"
        case is [String].Type: "a list of strings"
        default: "an object"
        }
        return SettingsError("\(path)\(place): “\(key)” has the wrong type: expected \(expected).")
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// A key no setting has, with the nearest known one suggested.
    struct UnknownKey: Error {
        var path: [String]
        var key: String
        var known: [String]

        var message: String {
            let place = path.isEmpty ? "" : " in “\(path.joined(separator: "."))”"
            let hint = KeySuggestion.nearest(to: key, among: known).map { "; did you mean “\($0)”?" }
                ?? "; known: \(known.joined(separator: ", "))."
            return "“\(key)” is not a setting\(place)\(hint)"
        }
    }

    static func rejectUnknownKeys(in decoder: any Decoder, known: [String]) throws {
        let keys = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
        if let unknown = keys.first(where: { !known.contains($0) }) {
            throw UnknownKey(path: decoder.codingPath.map(\.stringValue), key: unknown, known: known)
        }
    }
}

struct SettingsError: Error, CustomStringConvertible {
    var message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
