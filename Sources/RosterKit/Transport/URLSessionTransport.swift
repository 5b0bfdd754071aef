import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The production transport: one long-lived URLSession (connections are reused), nothing
/// cached or stored (a user directory is personal data), and a cap on the response body that
/// is enforced while the bytes arrive, so a huge or endless answer is an error, not a crash.
public final class URLSessionTransport: HTTPTransport {
    public static let defaultMaximumResponseBytes = 8 * 1024 * 1024

    private let session: URLSession
    private let tasks: TaskRegistry
    public let maximumResponseBytes: Int

    /// - Parameters:
    ///   - configuration: the session's configuration; tests pass one with `protocolClasses`
    ///     set to intercept requests. Caching and cookies are switched off whatever it says.
    ///   - idleTimeout: how long a connection may stay silent (URLSession's request timeout;
    ///     the API client's deadline bounds the whole call).
    public init(
        configuration: URLSessionConfiguration = .ephemeral,
        idleTimeout: TimeInterval = 30,
        maximumResponseBytes: Int = URLSessionTransport.defaultMaximumResponseBytes
    ) {
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCredentialStorage = nil
        configuration.timeoutIntervalForRequest = idleTimeout
        configuration.httpMaximumConnectionsPerHost = max(configuration.httpMaximumConnectionsPerHost, 8)
        let registry = TaskRegistry(maximumResponseBytes: maximumResponseBytes)
        self.tasks = registry
        self.maximumResponseBytes = maximumResponseBytes
        self.session = URLSession(configuration: configuration, delegate: registry, delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        for field in request.headers {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
        }
        urlRequest.httpBody = request.body
        let host = request.url.host.map { host in request.url.port.map { "\(host):\($0)" } ?? host } ?? "?"

        let task = session.dataTask(with: urlRequest)
        let outcome: TaskRegistry.Outcome = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                tasks.register(task, continuation: continuation)
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
        switch outcome {
        case .completed(let response, let body):
            return TransportResponse(status: response.statusCode, headers: Self.headers(of: response), body: body)
        case .tooLarge:
            throw APIError.responseTooLarge(limitBytes: maximumResponseBytes)
        case .failed(let error):
            if let urlError = error as? URLError {
                if let apiError = APIError.fromURLError(urlError, host: host) { throw apiError }
                throw CancellationError()
            }
            throw APIError.transportFailed(error.localizedDescription)
        }
    }

    private static func headers(of response: HTTPURLResponse) -> HTTPHeaders {
        var headers = HTTPHeaders()
        for (name, value) in response.allHeaderFields {
            headers.add(name: String(describing: name), value: String(describing: value))
        }
        return headers
    }
}

/// The session delegate: collects each task's bytes up to the cap and completes its
/// continuation exactly once.
private final class TaskRegistry: NSObject, URLSessionDataDelegate, Sendable {
    enum Outcome: Sendable {
        case completed(HTTPURLResponse, Data)
        case tooLarge
        case failed(any Error)
    }

    private struct Entry {
        var continuation: CheckedContinuation<Outcome, any Error>
        var response: HTTPURLResponse?
        var body = Data()
        var tooLarge = false
    }

    private let entries = Mutex<[Int: Entry]>([:])
    private let maximumResponseBytes: Int

    init(maximumResponseBytes: Int) {
        self.maximumResponseBytes = maximumResponseBytes
    }

    func register(_ task: URLSessionTask, continuation: CheckedContinuation<Outcome, any Error>) {
        entries.withLock { $0[task.taskIdentifier] = Entry(continuation: continuation) }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let declaredTooLarge = response.expectedContentLength > Int64(maximumResponseBytes)
        entries.withLock { entries in
            entries[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse
            if declaredTooLarge { entries[dataTask.taskIdentifier]?.tooLarge = true }
        }
        completionHandler(declaredTooLarge ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overLimit = entries.withLock { entries -> Bool in
            guard var entry = entries[dataTask.taskIdentifier], !entry.tooLarge else { return false }
            if entry.body.count + data.count > maximumResponseBytes {
                entry.tooLarge = true
                entry.body = Data()
            } else {
                entry.body.append(data)
            }
            entries[dataTask.taskIdentifier] = entry
            return entry.tooLarge
        }
        if overLimit { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = entries.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if entry.tooLarge {
            entry.continuation.resume(returning: .tooLarge)
        } else if let error {
            entry.continuation.resume(returning: .failed(error))
        } else if let response = entry.response ?? task.response as? HTTPURLResponse {
            entry.continuation.resume(returning: .completed(response, entry.body))
        } else {
            entry.continuation.resume(returning: .failed(URLError(.badServerResponse)))
        }
    }
}
