import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS

/// One TLS handshake made only to describe it: the protocol version and the server's
/// certificate, for `roster --check`. Requests never go through here.
public enum TLSProbe {
    public struct Result: Sendable {
        public var version: String
        public var subject: String
        public var issuer: String
        /// nil when the certificate was trusted; otherwise why not.
        public var trustProblem: String?
    }

    /// Shakes hands with `host:port`, trusting the system's authorities plus `caFile`. When
    /// the certificate is not trusted, shakes hands once more without checking, to show it.
    public static func probe(host: String, port: Int, caFile: String?, timeout: Duration) async throws -> Result {
        do {
            var result = try await handshake(host: host, port: port, caFile: caFile, verify: true, timeout: timeout)
            result.trustProblem = nil
            return result
        } catch let error as NIOSSLError {
            var result = try await handshake(host: host, port: port, caFile: caFile, verify: false, timeout: timeout)
            let text = String(describing: error)
            result.trustProblem = text.contains("CERTIFICATE_VERIFY_FAILED")
                ? "not trusted (self-signed, from an unknown authority, or expired)" : text
            return result
        } catch is NIOSSLExtraError {
            var result = try await handshake(host: host, port: port, caFile: caFile, verify: false, timeout: timeout)
            result.trustProblem = "not issued for \(host)"
            return result
        }
    }

    private static func handshake(host: String, port: Int, caFile: String?, verify: Bool, timeout: Duration) async throws -> Result {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let caFile { configuration.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMFile(caFile))] }
        if !verify { configuration.certificateVerification = .none }
        let context = try NIOSSLContext(configuration: configuration)
        // An IP address is not a server name: SNI takes names only.
        let serverName: String? = (try? SocketAddress(ipAddress: host, port: port)) == nil ? host : nil
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let done = loop.makePromise(of: Void.self)
        let limit = TimeAmount(timeout)
        let timer = loop.scheduleTask(in: limit) { done.fail(ChannelError.connectTimeout(limit)) }
        defer { timer.cancel() }
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: loop)
                .connectTimeout(limit)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: context, serverHostname: serverName))
                        try channel.pipeline.syncOperations.addHandler(HandshakeWaiter(done))
                    }
                }
                .connect(host: host, port: port).get()
        } catch {
            done.fail(error)
            throw error
        }
        do {
            try await done.futureResult.get()
            let version = try await channel.nioSSL_tlsVersion().get()
            let certificate = try await channel.nioSSL_peerCertificate().get()
            try? await channel.close()
            return Result(
                version: version.map(describe) ?? "unknown",
                subject: certificate.map { describe($0.subjectName) } ?? "none",
                issuer: certificate.map { describe($0.issuerName) } ?? "none")
        } catch {
            try? await channel.close()
            throw error
        }
    }

    private static func describe(_ version: TLSVersion) -> String {
        switch version {
        case .tlsv1: "TLS 1.0"
        case .tlsv11: "TLS 1.1"
        case .tlsv12: "TLS 1.2"
        case .tlsv13: "TLS 1.3"
        }
    }

    private static func describe(_ names: [SSLCertificateName]) -> String {
        names.map { name -> String in
            let key = switch name.type {
            case .commonName: "CN"
            case .organization: "O"
            case .organizationalUnit: "OU"
            case .country: "C"
            case .state: "ST"
            case .city: "L"
            default: "?"
            }
            return "\(key)=\(name.value)"
        }.joined(separator: ", ")
    }
}

/// Completes its promise when the TLS handshake is done, or fails it.
private final class HandshakeWaiter: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    private let done: EventLoopPromise<Void>

    init(_ done: EventLoopPromise<Void>) {
        self.done = done
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted? = event as? TLSUserEvent { done.succeed() }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        done.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        done.fail(ChannelError.eof)
        context.fireChannelInactive()
    }
}
