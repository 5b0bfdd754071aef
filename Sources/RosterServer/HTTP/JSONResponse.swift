import Foundation
import Hummingbird
import NIOCore
import RosterKit

/// Writes envelopes with the wire contract's encoder, the one the client decodes with.
enum JSONResponse {
    static func make<Payload: Encodable & Sendable>(
        _ envelope: APIResponse<Payload>, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]
    ) -> Response {
        let data: Data
        do {
            data = try WireFormat.makeEncoder().encode(envelope)
        } catch {
            return raw(Self.notEncoded, status: .internalServerError)
        }
        return raw(data, status: status, headers: headers)
    }

    /// The bytes `make` sends for `envelope`, for a store to record as a create's first answer.
    static func bytes<Payload: Encodable & Sendable>(of envelope: APIResponse<Payload>) -> [UInt8] {
        (try? Array(WireFormat.makeEncoder().encode(envelope))) ?? Array(notEncoded)
    }

    // Our own models always encode; this is a last resort that still keeps the envelope.
    private static let notEncoded = Data(
        #"{"success":false,"data":null,"error":{"code":"internal_error","message":"The answer could not be encoded."}}"#.utf8)

    /// A JSON body sent as it is.
    static func raw(_ data: some Sequence<UInt8>, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        raw(ByteBuffer(bytes: data), status: status, headers: headers)
    }

    /// A JSON body already in a buffer, sent without copying it.
    static func raw(_ buffer: ByteBuffer, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: buffer))
    }
}
