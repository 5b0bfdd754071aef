import Hummingbird
import NIOCore

/// Hummingbird's basic context plus the client's address (for `GuessLimiter` and the audit
/// log). The token's identity goes to the writes as `AuditActor.current`, not in the context:
/// copying a context per request to carry it cost the read path for nothing.
struct RosterRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// The peer's IP address, as the limiter keys it.
    var clientAddress: String {
        remoteAddress?.ipAddress ?? remoteAddress?.pathname ?? "unknown"
    }
}
