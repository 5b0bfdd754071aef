import Foundation
import RosterKit

/// What a configuration file may say (Config/roster.json documents each key and its
/// default). Every key is optional; an unknown key is an error, so a typo is not ignored.
struct SettingsFile: Decodable, Equatable {
    var server: String?
    var api: String?
    var token: String?
    var tokenFile: String?
    var tokenCommand: String?
    var caFile: String?
    var pageSize: Int?
    var requestTimeoutSeconds: Double?
    var connectTimeoutSeconds: Double?
    var colors: String?
    var mouse: Bool?
    var scrolling: String?
    var exportColumns: [String]?
    var logFile: String?
    var logLevel: String?
    var embedded: Embedded?
    // LDAP (docs/ldap.md): how to bind, and where people and groups are.
    var bindDN: String?, passwordFile: String?, passwordCommand: String?, startTLS: Bool?, ldap: LDAPSection?

    struct Embedded: Decodable, Equatable {
        var database: String?
        var seedUsers: Int?
        var demoFaults: Double?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case database, seedUsers, demoFaults
        }

        init(from decoder: any Decoder) throws {
            try SettingsFile.rejectUnknownKeys(in: decoder, known: CodingKeys.allCases.map(\.rawValue), section: "embedded")
            let container = try decoder.container(keyedBy: CodingKeys.self)
            database = try container.decodeIfPresent(String.self, forKey: .database)
            seedUsers = try container.decodeIfPresent(Int.self, forKey: .seedUsers)
            demoFaults = try container.decodeIfPresent(Double.self, forKey: .demoFaults)
        }
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case server, api, token, tokenFile, tokenCommand, caFile, pageSize, requestTimeoutSeconds, connectTimeoutSeconds
        case colors, mouse, scrolling, exportColumns, logFile, logLevel, embedded
        case bindDN, passwordFile, passwordCommand, startTLS, ldap
    }

    init() {}

    init(from decoder: any Decoder) throws {
        try Self.rejectUnknownKeys(in: decoder, known: CodingKeys.allCases.map(\.rawValue), section: nil)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        server = try container.decodeIfPresent(String.self, forKey: .server)
        api = try container.decodeIfPresent(String.self, forKey: .api)
        token = try container.decodeIfPresent(String.self, forKey: .token)
        tokenFile = try container.decodeIfPresent(String.self, forKey: .tokenFile)
        tokenCommand = try container.decodeIfPresent(String.self, forKey: .tokenCommand)
        caFile = try container.decodeIfPresent(String.self, forKey: .caFile)
        pageSize = try container.decodeIfPresent(Int.self, forKey: .pageSize)
        requestTimeoutSeconds = try container.decodeIfPresent(Double.self, forKey: .requestTimeoutSeconds)
        connectTimeoutSeconds = try container.decodeIfPresent(Double.self, forKey: .connectTimeoutSeconds)
        colors = try container.decodeIfPresent(String.self, forKey: .colors)
        mouse = try container.decodeIfPresent(Bool.self, forKey: .mouse)
        scrolling = try container.decodeIfPresent(String.self, forKey: .scrolling)
        exportColumns = try container.decodeIfPresent([String].self, forKey: .exportColumns)
        logFile = try container.decodeIfPresent(String.self, forKey: .logFile)
        logLevel = try container.decodeIfPresent(String.self, forKey: .logLevel)
        embedded = try container.decodeIfPresent(Embedded.self, forKey: .embedded)
        bindDN = try container.decodeIfPresent(String.self, forKey: .bindDN)
        passwordFile = try container.decodeIfPresent(String.self, forKey: .passwordFile)
        passwordCommand = try container.decodeIfPresent(String.self, forKey: .passwordCommand)
        startTLS = try container.decodeIfPresent(Bool.self, forKey: .startTLS)
        ldap = try container.decodeIfPresent(LDAPSection.self, forKey: .ldap)
    }

    /// Reads a settings file; the error names the file and what is wrong with it.
    static func load(from path: String) throws -> SettingsFile {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw SettingsError("Cannot read the configuration file \(path): \(error.localizedDescription)")
        }
        let text = JSONWithComments.strip(String(decoding: data, as: UTF8.self))
        do {
            return try JSONDecoder().decode(SettingsFile.self, from: Data(text.utf8))
        } catch let error as SettingsError {
            throw SettingsError("\(path): \(error.message)")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            let key = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw SettingsError("\(path): “\(key)” has the wrong type.")
        } catch {
            throw SettingsError("\(path) is not valid JSON: \(error.localizedDescription)")
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    static func rejectUnknownKeys(in decoder: any Decoder, known: [String], section: String?) throws {
        let keys = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
        if let unknown = keys.first(where: { !known.contains($0) }) {
            let place = section.map { " in “\($0)”" } ?? ""
            throw SettingsError("unknown setting “\(unknown)”\(place); known: \(known.joined(separator: ", ")).")
        }
    }
}

struct SettingsError: Error, CustomStringConvertible {
    var message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
