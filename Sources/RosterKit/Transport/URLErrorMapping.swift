import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension APIError {
    /// The user-facing error for a URLSession failure, or nil when the failure is a cancellation.
    public static func fromURLError(_ error: URLError, host: String) -> APIError? {
        switch error.code {
        case .cancelled:
            return nil
        case .notConnectedToInternet, .dataNotAllowed, .internationalRoamingOff:
            return .offline
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .secureConnectionFailed,
             .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
             .serverCertificateHasUnknownRoot, .clientCertificateRejected, .clientCertificateRequired:
            return .cannotConnect(host: host)
        case .timedOut:
            return .timedOut
        case .networkConnectionLost:
            return .connectionLost
        case .badServerResponse, .zeroByteResource, .cannotParseResponse:
            return .connectionLost
        case .dataLengthExceedsMaximum:
            return .responseTooLarge(limitBytes: 0)
        default:
            return .transportFailed(error.localizedDescription)
        }
    }
}
