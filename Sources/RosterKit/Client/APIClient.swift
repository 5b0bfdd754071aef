import Foundation
import Logging

/// Sends endpoints to the user API and returns their decoded data.
///
/// Each call builds the request, passes it through the middleware onion to the transport,
/// retries what the retry policy allows, bounds the whole call (all attempts and waits) by a
/// deadline, checks the status, and unwraps the `APIResponse` envelope. Errors come out as
/// `APIError`; a cancelled task gets `CancellationError` at once, even during a backoff.
public actor APIClient {
    public struct Configuration: Sendable {
        public var baseURL: URL
        public var transport: any HTTPTransport
        /// Outermost first. `APIClient.init(baseURL:token:…)` sets user agent, token and logging.
        public var middlewares: [any ClientMiddleware]
        public var retryPolicy: RetryPolicy
        /// The most one call may take, all attempts and backoffs included.
        public var deadline: Duration
        /// Where waits (backoff, deadline) are measured; tests pass a manual clock.
        public var clock: any Clock<Duration>
        public var logger: Logger

        public init(
            baseURL: URL,
            transport: any HTTPTransport,
            middlewares: [any ClientMiddleware] = [],
            retryPolicy: RetryPolicy = .default,
            deadline: Duration = .seconds(30),
            clock: any Clock<Duration> = ContinuousClock(),
            logger: Logger = Logger(label: "roster.client")
        ) {
            self.baseURL = baseURL
            self.transport = transport
            self.middlewares = middlewares
            self.retryPolicy = retryPolicy
            self.deadline = deadline
            self.clock = clock
            self.logger = logger
        }
    }

    public nonisolated let configuration: Configuration
    private let pipeline: NextHandler
    /// What the server said it does beyond the base contract (`HealthStatus.features`); nil
    /// until someone has asked. A POST whose answer was lost is resent only when this lists
    /// its endpoint's `idempotencyFeature`.
    public private(set) var serverFeatures: [String]?

    /// Whether the server replays the first answer to a user create sent again with the same
    /// `Idempotency-Key`; nil until someone has asked.
    public var serverReplaysIdempotencyKeys: Bool? {
        serverFeatures.map { $0.contains(HealthStatus.idempotencyKeyFeature) }
    }
    /// Keys sorted: Foundation's encoder writes an object's keys in its dictionary's order,
    /// which differs between two encodes of the same value, and roster-server replays an
    /// idempotency key only for the same body byte for byte (a draft sent again, an import
    /// row sent again by the next run).
    private let encoder: JSONEncoder = {
        let encoder = WireFormat.makeEncoder()
        encoder.outputFormatting.insert(.sortedKeys)
        return encoder
    }()
    private let decoder = WireFormat.makeDecoder()

    public init(configuration: Configuration) {
        self.configuration = configuration
        self.pipeline = configuration.middlewares.wrapping(configuration.transport)
    }

    /// A client with the standard middleware: user agent, bearer token (when given), logging.
    public init(
        baseURL: URL,
        token: String?,
        transport: any HTTPTransport,
        retryPolicy: RetryPolicy = .default,
        deadline: Duration = .seconds(30),
        clock: any Clock<Duration> = ContinuousClock(),
        logger: Logger = Logger(label: "roster.client")
    ) {
        self.init(
            baseURL: baseURL, tokens: token.map { TokenProvider(.literal($0, origin: "token")) }, transport: transport,
            retryPolicy: retryPolicy, deadline: deadline, clock: clock, logger: logger)
    }

    /// A client with the standard middleware, its token from `tokens` (refreshed on a 401).
    public init(
        baseURL: URL,
        tokens: TokenProvider?,
        transport: any HTTPTransport,
        retryPolicy: RetryPolicy = .default,
        deadline: Duration = .seconds(30),
        clock: any Clock<Duration> = ContinuousClock(),
        logger: Logger = Logger(label: "roster.client")
    ) {
        var middlewares: [any ClientMiddleware] = [UserAgentMiddleware()]
        if let tokens { middlewares.append(BearerTokenMiddleware(tokens: tokens)) }
        middlewares.append(LoggingMiddleware(logger: logger))
        self.init(configuration: Configuration(
            baseURL: baseURL, transport: transport, middlewares: middlewares, retryPolicy: retryPolicy,
            deadline: deadline, clock: clock, logger: logger))
    }

    /// Records what the server does (from its health answer).
    public func setServerFeatures(_ features: [String]) {
        serverFeatures = features
    }

    /// The server's features, asked once with a health call. A server that cannot be asked
    /// now is taken to do nothing extra, and asked again next time.
    public func learnServerFeatures() async -> [String] {
        if let known = serverFeatures { return known }
        guard let health = try? await send(UserEndpoint.health, expecting: HealthStatus.self) else { return [] }
        let features = health.features ?? []
        serverFeatures = features
        return features
    }

    /// Sends `endpoint` and returns the envelope's `data`, which must be present.
    public func send<Payload: Decodable & Sendable>(
        _ endpoint: some Endpoint, expecting payload: Payload.Type = Payload.self
    ) async throws -> Payload {
        let response = try await response(for: endpoint)
        let envelope: APIResponse<Payload>
        do {
            envelope = try WireFormat.decodeEnvelope(APIResponse<Payload>.self, from: response.body, decoder: decoder)
        } catch {
            let failure = DecodingFailure(error, body: response.body)
            configuration.logger.error(
                "undecodable response body",
                metadata: ["path": .string(failure.path), "reason": .string(failure.reason), "body": .string(failure.rawBody)])
            throw APIError.decodingFailed(failure)
        }
        guard envelope.success else { throw APIError.unsuccessfulResponse(envelope.error) }
        guard let data = envelope.data else { throw APIError.missingData }
        return data
    }

    /// Sends `endpoint` and returns the raw 2xx response (retries and deadline included).
    /// Any other status is thrown as its `APIError`.
    public func response(for endpoint: some Endpoint) async throws -> TransportResponse {
        let request = try endpoint.makeRequest(baseURL: configuration.baseURL, encoder: encoder)
        let configuration = configuration
        let pipeline = pipeline
        let keysReplayed = serverFeatures?.contains(endpoint.idempotencyFeature) == true
        return try await withDeadline(configuration.deadline, clock: configuration.clock) {
            try await Self.sendWithRetries(
                request, pipeline: pipeline, configuration: configuration, keysReplayed: keysReplayed,
                clock: configuration.clock)
        }
    }

    private static func sendWithRetries<C: Clock<Duration>>(
        _ request: TransportRequest, pipeline: NextHandler, configuration: Configuration, keysReplayed: Bool, clock: C
    ) async throws -> TransportResponse {
        let policy = configuration.retryPolicy
        let deadline = clock.now.advanced(by: configuration.deadline)
        var attempt = 1
        var anEarlierAttemptMayHaveLanded = false
        while true {
            try Task.checkCancellation()
            let error: APIError
            do {
                return try validated(try await pipeline(request))
            } catch APIError.notFound(let body) where request.method == .delete && anEarlierAttemptMayHaveLanded {
                // The first attempt deleted it and its answer was lost on the way back.
                configuration.logger.notice(
                    "DELETE \(Redaction.url(request.url)) answered 404 after an attempt whose answer was lost: counted as deleted",
                    metadata: ["code": .string(body?.code ?? "")])
                return TransportResponse(status: 204)
            } catch let apiError as APIError {
                error = apiError
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                if Task.isCancelled { throw CancellationError() }
                throw APIError.transportFailed(String(describing: error))
            }
            if error.requestMayHaveArrived { anEarlierAttemptMayHaveLanded = true }
            guard policy.shouldRetry(error, request: request, keysReplayed: keysReplayed, attempt: attempt) else { throw error }
            let delay = policy.delay(afterAttempt: attempt, error: error)
            // A wait that would outlast the deadline cannot lead anywhere: report the real failure.
            guard clock.now.advanced(by: delay) < deadline else { throw error }
            configuration.logger.notice(
                "retrying \(request.method.rawValue) \(Redaction.url(request.url)) after \(delay) (attempt \(attempt) failed: \(error))")
            try await clock.sleep(for: delay)
            attempt += 1
        }
    }

    /// Passes a 2xx response through; turns any other status into its `APIError`, with the
    /// server's error body when it sent a readable one.
    static func validated(_ response: TransportResponse) throws -> TransportResponse {
        guard !(200...299).contains(response.status) else { return response }
        let body = (try? WireFormat.makeDecoder().decode(APIResponse<EmptyPayload>.self, from: response.body))?.error
            ?? SCIMError.errorBody(from: response.body)
        throw APIError.forStatus(response.status, body: body, retryAfter: RetryAfter.parse(response.headers["Retry-After"]))
    }
}
