import Hummingbird
import NIOCore

/// Hummingbird's basic context plus what the server learns of the caller: the client's address
/// (for `GuessLimiter`) and, once `BearerAuthMiddleware` accepted it, the token's identity.
struct RosterRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?
    var token: TokenIdentity?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// The peer's IP address, as the limiter keys it.
    var clientAddress: String {
        remoteAddress?.ipAddress ?? remoteAddress?.pathname ?? "unknown"
    }
}
