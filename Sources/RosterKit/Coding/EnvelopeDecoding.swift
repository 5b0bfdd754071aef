import Foundation

extension WireFormat {
    /// Decodes an envelope as `decoder` would; a page of users in the server's own layout is
    /// read by `PageScanner` instead, several times faster (see there).
    public static func decodeEnvelope<Payload: Decodable & Sendable>(
        _ type: APIResponse<Payload>.Type, from body: Data, decoder: JSONDecoder
    ) throws -> APIResponse<Payload> {
        if Payload.self == Page<User>.self, let page = PageScanner.page(in: body) as? Payload {
            return .success(page)
        }
        return try decoder.decode(type, from: body)
    }
}
