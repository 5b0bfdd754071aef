import Hummingbird
import NIOCore
import RosterKit

/// SCIM answers are `application/scim+json` (RFC 7644 section 8.1).
enum SCIMResponse {
    static func make(_ body: SCIMValue?, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        guard let body else { return Response(status: status, headers: headers) }
        headers[.contentType] = SCIMSchemas.mediaType
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: SCIMJSONWriter.bytes(body))))
    }
}
