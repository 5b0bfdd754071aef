import Foundation
import Hummingbird
import NIOCore

/// Reads a request's JSON body: the media type must say JSON (415) and the body must fit in
/// 64 KiB (413), checked before and while the bytes arrive so a huge body is never held.
enum JSONBody {
    static let maximumBytes = 64 * 1024

    static func read(_ request: Request) async throws(APIProblem) -> ByteBuffer {
        guard isJSON(request.headers[.contentType]) else { throw .unsupportedMediaType }
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > maximumBytes {
            throw .payloadTooLarge
        }
        do {
            return try await request.body.collect(upTo: maximumBytes)
        } catch is NIOTooManyBytesError {
            throw .payloadTooLarge
        } catch {
            throw .badRequest("The request body could not be read.")
        }
    }

    /// `application/json`, in any case, with or without parameters such as `charset=utf-8`.
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        return mediaType.trimmingCharacters(in: .whitespaces).lowercased() == "application/json"
    }
}
