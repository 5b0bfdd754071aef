import Hummingbird
import NIOCore
import NIOConcurrencyHelpers

/// `GET /api/v1/_bench/floor?bytes=N`: a JSON body of exactly N bytes, built once and then sent
/// as it is. It passes through the same middleware (log, envelope, token) as the user calls,
/// so the benchmark's ratio of a user call to this route is the cost of the call's own work
/// (query, SQLite, encoding). Only present with `ServerConfiguration.benchmarkRoutes`.
final class FloorRoute: Sendable {
    static let maximumBytes = 1 << 20
    private let bodies = NIOLockedValueBox<[Int: ByteBuffer]>([:])

    func respond(_ request: Request, context: some RequestContext) throws -> Response {
        let requested = request.uri.queryParameters["bytes"].flatMap { Int($0) } ?? 1024
        let size = min(max(requested, 40), Self.maximumBytes)
        let body = bodies.withLockedValue { bodies in
            if let body = bodies[size] { return body }
            // {"success":true,"data":"xxxx…","error":null}: a valid envelope, padded to size.
            let prefix = #"{"success":true,"data":""#, suffix = #"","error":null}"#
            let padding = size - prefix.utf8.count - suffix.utf8.count
            var buffer = ByteBuffer(string: prefix)
            buffer.writeRepeatingByte(UInt8(ascii: "x"), count: max(0, padding))
            buffer.writeString(suffix)
            if bodies.count < 64 { bodies[size] = buffer }
            return buffer
        }
        return Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: body))
    }
}
