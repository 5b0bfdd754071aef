import Foundation
import RosterKit
import NIOConcurrencyHelpers

/// A transport that answers from a script and records every request it was sent.
/// Each request takes the next step of the script; the last step repeats once the script
/// runs out, so a one-step script answers every request the same way.
public final class ScriptedTransport: HTTPTransport {
    public enum Step: Sendable {
        /// Answer with this response.
        case respond(TransportResponse)
        /// Fail with this error (an `APIError` transport case, `CancellationError`, a `URLError`…).
        case fail(any Error)
        /// Compute the answer from the request.
        case handler(@Sendable (TransportRequest) async throws -> TransportResponse)
        /// Never answer until cancelled (a server that hangs).
        case hang
    }

    private struct State {
        var steps: [Step]
        var requests: [TransportRequest] = []
    }

    private let state: NIOLockedValueBox<State>

    public init(_ steps: [Step]) {
        state = NIOLockedValueBox(State(steps: steps))
    }

    public convenience init(_ step: Step) {
        self.init([step])
    }

    /// Every request received, in order.
    public var requests: [TransportRequest] { state.withLockedValue { $0.requests } }
    public var requestCount: Int { state.withLockedValue { $0.requests.count } }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        let step = state.withLockedValue { state -> Step in
            state.requests.append(request)
            guard let first = state.steps.first else { return .fail(APIError.transportFailed("script is empty")) }
            if state.steps.count > 1 { state.steps.removeFirst() }
            return first
        }
        switch step {
        case .respond(let response):
            try Task.checkCancellation()
            return response
        case .fail(let error):
            throw error
        case .handler(let handler):
            return try await handler(request)
        case .hang:
            while true {
                try await Task.sleep(for: .seconds(3600))
            }
        }
    }
}

extension TransportResponse {
    /// A JSON response whose body is the wire encoding of `value`.
    public static func json(_ value: some Encodable, status: Int = 200, headers: HTTPHeaders = [:]) -> TransportResponse {
        var headers = headers
        headers["Content-Type"] = "application/json"
        let body = (try? WireFormat.makeEncoder().encode(value)) ?? Data()
        return TransportResponse(status: status, headers: headers, body: body)
    }

    /// A response whose body is the given text, as-is.
    public static func text(_ text: String, status: Int = 200, contentType: String = "application/json", headers: HTTPHeaders = [:]) -> TransportResponse {
        var headers = headers
        headers["Content-Type"] = contentType
        return TransportResponse(status: status, headers: headers, body: Data(text.utf8))
    }

    /// An error envelope with the given status.
    public static func error(_ status: Int, code: String, message: String, fields: [FieldError]? = nil, headers: HTTPHeaders = [:]) -> TransportResponse {
        .json(APIResponse<EmptyPayload>.failure(ErrorBody(code: code, message: message, fields: fields)), status: status, headers: headers)
    }
}
