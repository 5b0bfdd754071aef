import Foundation

/// What one connection needs, as the settings file says it: at the top level (the defaults)
/// and in each entry of `connections` (a profile, whose keys override the top level's). A new
/// connection key is added here only: decoding, the unknown-key check and the merge of a
/// profile over the top level all go by `CodingKeys`.
struct ConnectionSettings: Codable, Equatable {
    var server: String?
    var api: String?
    var token: String?
    var tokenFile: String?
    var tokenCommand: String?
    var caFile: String?
    var pageSize: Int?
    var requestTimeoutSeconds: Double?
    var connectTimeoutSeconds: Double?
    /// The order the list opens in (`UserSort`'s values: "directory", "name", "-name", …).
    var sort: String?
    /// The header's colour for this connection (a red "prod" is a convention admins rely on).
    var color: String?
    var embedded: Embedded?
    // LDAP (docs/ldap.md): how to bind, and where people and groups are.
    var bindDN: String?
    var passwordFile: String?
    var passwordCommand: String?
    var startTLS: Bool?
    var ldap: LDAPSection?
    /// Keys written as `null`: in a profile, null clears the top level's value (`"server":
    /// null` opens the embedded server even when the top level names one).
    var nulls: Set<String> = []

    struct Embedded: Codable, Equatable {
        var database: String?
        var seedUsers: Int?
        var demoFaults: Double?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case database, seedUsers, demoFaults
        }

        init(from decoder: any Decoder) throws {
            try SettingsFile.rejectUnknownKeys(in: decoder, known: CodingKeys.allCases.map(\.rawValue))
            let container = try decoder.container(keyedBy: CodingKeys.self)
            database = try container.decodeIfPresent(String.self, forKey: .database)
            seedUsers = try container.decodeIfPresent(Int.self, forKey: .seedUsers)
            demoFaults = try container.decodeIfPresent(Double.self, forKey: .demoFaults)
        }
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case server, api, token, tokenFile, tokenCommand, caFile, pageSize, requestTimeoutSeconds, connectTimeoutSeconds, sort
        case color, embedded
        case bindDN, passwordFile, passwordCommand, startTLS, ldap
    }

    /// Keys of which at most one may be set; a profile that sets one replaces the top level's
    /// whole group (a profile's tokenFile is not a second token beside the top level's token).
    static let exclusiveGroups: [[CodingKeys]] = [[.token, .tokenFile, .tokenCommand], [.passwordFile, .passwordCommand]]

    init() {}

    /// Reads the connection keys of `decoder`'s object; the caller checks for unknown keys,
    /// since the top level has other keys beside these.
    init(from decoder: any Decoder) throws {
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
        sort = try container.decodeIfPresent(String.self, forKey: .sort)
        color = try container.decodeIfPresent(String.self, forKey: .color)
        embedded = try container.decodeIfPresent(Embedded.self, forKey: .embedded)
        bindDN = try container.decodeIfPresent(String.self, forKey: .bindDN)
        passwordFile = try container.decodeIfPresent(String.self, forKey: .passwordFile)
        passwordCommand = try container.decodeIfPresent(String.self, forKey: .passwordCommand)
        startTLS = try container.decodeIfPresent(Bool.self, forKey: .startTLS)
        ldap = try container.decodeIfPresent(LDAPSection.self, forKey: .ldap)
        for key in CodingKeys.allCases where container.contains(key) {
            if try container.decodeNil(forKey: key) { nulls.insert(key.rawValue) }
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(server, forKey: .server)
        try container.encodeIfPresent(api, forKey: .api)
        try container.encodeIfPresent(token, forKey: .token)
        try container.encodeIfPresent(tokenFile, forKey: .tokenFile)
        try container.encodeIfPresent(tokenCommand, forKey: .tokenCommand)
        try container.encodeIfPresent(caFile, forKey: .caFile)
        try container.encodeIfPresent(pageSize, forKey: .pageSize)
        try container.encodeIfPresent(requestTimeoutSeconds, forKey: .requestTimeoutSeconds)
        try container.encodeIfPresent(connectTimeoutSeconds, forKey: .connectTimeoutSeconds)
        try container.encodeIfPresent(sort, forKey: .sort)
        try container.encodeIfPresent(color, forKey: .color)
        try container.encodeIfPresent(embedded, forKey: .embedded)
        try container.encodeIfPresent(bindDN, forKey: .bindDN)
        try container.encodeIfPresent(passwordFile, forKey: .passwordFile)
        try container.encodeIfPresent(passwordCommand, forKey: .passwordCommand)
        try container.encodeIfPresent(startTLS, forKey: .startTLS)
        try container.encodeIfPresent(ldap, forKey: .ldap)
    }

    /// These settings with `profile`'s keys over them: a key the profile sets (or sets to
    /// null) wins, the others stay. Merged as JSON objects, so every key above takes part.
    func overridden(by profile: ConnectionSettings) throws -> ConnectionSettings {
        var merged = try Self.object(self)
        let overrides = try Self.object(profile)
        for group in Self.exclusiveGroups where group.contains(where: { overrides[$0.rawValue] != nil || profile.nulls.contains($0.rawValue) }) {
            for key in group { merged[key.rawValue] = nil }
        }
        for key in profile.nulls { merged[key] = nil }
        merged.merge(overrides) { _, new in new }
        let data = try JSONSerialization.data(withJSONObject: merged)
        return try JSONDecoder().decode(ConnectionSettings.self, from: data)
    }

    private static func object(_ settings: ConnectionSettings) throws -> [String: Any] {
        let data = try JSONEncoder().encode(settings)
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }
}
