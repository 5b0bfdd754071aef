/// The envelope around every body of the wire contract.
public struct APIResponse<Payload: Sendable>: Sendable {
    public var success: Bool
    public var data: Payload?
    public var error: ErrorBody?

    public init(success: Bool, data: Payload?, error: ErrorBody?) {
        self.success = success
        self.data = data
        self.error = error
    }

    public static func success(_ payload: Payload) -> APIResponse {
        APIResponse(success: true, data: payload, error: nil)
    }

    public static func failure(_ error: ErrorBody) -> APIResponse {
        APIResponse(success: false, data: nil, error: error)
    }

    enum CodingKeys: String, CodingKey {
        case success, data, error
    }
}

extension APIResponse: Equatable where Payload: Equatable {}

extension APIResponse: Decodable where Payload: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        success = try container.decode(Bool.self, forKey: .success)
        data = try container.decodeIfPresent(Payload.self, forKey: .data)
        error = try container.decodeIfPresent(ErrorBody.self, forKey: .error)
    }
}

extension APIResponse: Encodable where Payload: Encodable {
    // `data` and `error` are always present, as null when empty: the contract says `T | null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(success, forKey: .success)
        if let data { try container.encode(data, forKey: .data) } else { try container.encodeNil(forKey: .data) }
        if let error { try container.encode(error, forKey: .error) } else { try container.encodeNil(forKey: .error) }
    }
}

/// A body with no content, for envelopes whose data is always null (e.g. every error).
public struct EmptyPayload: Codable, Sendable, Equatable {
    public init() {}
}

/// What the server says went wrong.
public struct ErrorBody: Codable, Sendable, Equatable, Hashable {
    /// Machine-readable, e.g. "email_taken", "validation_failed".
    public var code: String
    /// A sentence for a person.
    public var message: String
    /// Per-field problems of a 409 or 422; nil when the error is not about fields.
    public var fields: [FieldError]?

    public init(code: String, message: String, fields: [FieldError]? = nil) {
        self.code = code
        self.message = message
        self.fields = fields
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code, forKey: .code)
        try container.encode(message, forKey: .message)
        try container.encodeIfPresent(fields, forKey: .fields)
    }

    enum CodingKeys: String, CodingKey {
        case code, message, fields
    }
}

/// One field's problem: which field (a wire name such as "email") and why.
public struct FieldError: Codable, Sendable, Equatable, Hashable {
    public var field: String
    public var message: String

    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }
}

/// The body of `GET /api/v1/health`.
public struct HealthStatus: Codable, Sendable, Equatable {
    public var status: String
    public var version: String?
    /// What the server can do beyond the base contract, e.g. `idempotency-key` (it replays the
    /// first answer to a POST sent again with the same `Idempotency-Key`). Absent on older servers.
    public var features: [String]?

    public init(status: String, version: String? = nil, features: [String]? = nil) {
        self.status = status
        self.version = version
        self.features = features
    }

    public static let idempotencyKeyFeature = "idempotency-key"
    /// `POST /api/v1/groups` replays its first answer to a key, as user creates do (servers
    /// before it listed `idempotency-key` but answered a group create's retry with 409).
    public static let groupIdempotencyKeyFeature = "idempotency-key-groups"
}
