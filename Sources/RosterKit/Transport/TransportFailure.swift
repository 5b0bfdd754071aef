import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// AsyncHTTPClient's and SwiftNIO's errors as the `APIError` a person reads.
enum TransportFailure {
    /// nil for a cancellation, which is never shown.
    static func apiError(for error: any Error, host: String, options: TransportOptions) -> APIError? {
        if error is CancellationError { return nil }
        if let error = error as? APIError { return error }
        if error is NIOTooManyBytesError {
            return .responseTooLarge(limitBytes: options.maximumResponseBytes)
        }
        if let error = error as? HTTPClientError {
            return clientError(error, host: host)
        }
        if let error = error as? NIOConnectionError {
            return connectionError(error, host: host)
        }
        if let error = error as? IOError {
            return [ECONNRESET, EPIPE].contains(error.errnoCode) ? .connectionLost : .cannotConnect(host: host)
        }
        if let error = error as? ChannelError {
            switch error {
            case .connectTimeout: return .cannotConnect(host: host)
            case .ioOnClosedChannel, .alreadyClosed, .eof, .outputClosed, .inputClosed: return .connectionLost
            default: return .transportFailed(String(describing: error))
            }
        }
        if error is NIOSSLExtraError {
            return .insecureConnection(host: host, reason: "its certificate is not for this host name")
        }
        if let error = error as? NIOSSLError {
            return tlsError(error, host: host)
        }
        if error is HTTPParserError {
            return .transportFailed("the server's answer is not valid HTTP (\(error))")
        }
        return .transportFailed(String(describing: error))
    }

    private static func clientError(_ error: HTTPClientError, host: String) -> APIError? {
        switch error {
        case .cancelled:
            return nil
        case .connectTimeout, .tlsHandshakeTimeout, .getConnectionFromPoolTimeout:
            return .cannotConnect(host: host)
        case .httpProxyHandshakeTimeout:
            return .proxyFailed("the proxy did not open a tunnel to \(host) in time")
        case .deadlineExceeded, .readTimeout, .writeTimeout:
            return .timedOut
        case .remoteConnectionClosed:
            return .connectionLost
        case .proxyAuthenticationRequired:
            return .proxyFailed("the proxy asks for credentials (put them in the proxy URL: http://user:password@proxy:port)")
        case .invalidProxyResponse:
            return .proxyFailed("the proxy refused to open a tunnel to \(host)")
        case .invalidURL, .emptyHost, .emptyScheme:
            return .invalidRequest("the server URL cannot be used (\(error))")
        case .bodyLengthMismatch:
            return .connectionLost
        default:
            return .transportFailed(String(describing: error))
        }
    }

    /// Name lookup failed, or every address refused or could not be reached.
    private static func connectionError(_ error: NIOConnectionError, host: String) -> APIError {
        .cannotConnect(host: host)
    }

    private static func tlsError(_ error: NIOSSLError, host: String) -> APIError {
        let text = String(describing: error)
        if text.contains("CERTIFICATE_VERIFY_FAILED") {
            return .insecureConnection(
                host: host, reason: "its certificate is not trusted (self-signed, from an unknown authority, or expired)")
        }
        if case .uncleanShutdown = error { return .connectionLost }
        return .insecureConnection(host: host, reason: "the TLS handshake failed (\(text))")
    }
}
