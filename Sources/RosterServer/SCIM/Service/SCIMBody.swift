import Foundation
import Hummingbird
import NIOCore

/// Reads a SCIM request body: `application/scim+json` or `application/json` (415 otherwise),
/// at most 1 MiB (413), parsed into a `SCIMValue` (400 invalidSyntax).
enum SCIMBody {
    /// Also the Bulk endpoint's advertised `maxPayloadSize`: a group of a few thousand members fits.
    static let maximumBytes = 1 << 20

    static func read(_ request: Request) async throws(SCIMProblem) -> [UInt8] {
        guard isJSON(request.headers[.contentType]) else { throw .unsupportedMediaType }
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > maximumBytes {
            throw .payloadTooLarge
        }
        do {
            let buffer = try await request.body.collect(upTo: maximumBytes)
            return Array(buffer.readableBytesView)
        } catch is NIOTooManyBytesError {
            throw .payloadTooLarge
        } catch {
            throw .invalidSyntax("The request body could not be read.")
        }
    }

    /// `application/scim+json` or `application/json`, in any case, with or without parameters.
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = (contentType.split(separator: ";", maxSplits: 1).first ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        return mediaType == "application/scim+json" || mediaType == "application/json"
    }
}
