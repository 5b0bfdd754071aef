import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// An HTTPS listener on 127.0.0.1 that answers every request with one fixed response, for
/// testing TLS trust: a real handshake with a real (self-signed) certificate.
public final class TLSListener: Sendable {
    public let port: Int
    private let channel: any Channel

    private init(port: Int, channel: any Channel) {
        self.port = port
        self.channel = channel
    }

    /// - Parameter response: the raw HTTP response written after each request's head.
    public static func start(certificate: SelfSignedCertificate, response: String) async throws -> TLSListener {
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(certificate.certificatePath).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: certificate.keyPath, format: .pem)))
        let context = try NIOSSLContext(configuration: configuration)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    try child.pipeline.syncOperations.addHandler(FixedResponder(response: response))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return TLSListener(port: channel.localAddress?.port ?? 0, channel: channel)
    }

    public func close() async {
        try? await channel.close()
    }
}

/// Writes the fixed response once a request's head has arrived, then closes.
private final class FixedResponder: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    private let response: String
    private var received: [UInt8] = []

    init(response: String) {
        self.response = response
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        received += buffer.readBytes(length: buffer.readableBytes) ?? []
        guard received.count >= 4, String(decoding: received, as: UTF8.self).contains("\r\n\r\n") else { return }
        received = []
        let out = context.channel.allocator.buffer(string: response)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(out)).whenComplete { _ in bound.value.close(promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

/// A throwaway self-signed certificate made with the openssl command (Debian's openssl
/// package), valid for `roster-tls.test`, `localhost` and 127.0.0.1.
public struct SelfSignedCertificate: Sendable {
    public static let hostName = "roster-tls.test"
    public let directory: URL
    public var certificatePath: String { directory.appendingPathComponent("cert.pem").path }
    public var keyPath: String { directory.appendingPathComponent("key.pem").path }

    public static func make() throws -> SelfSignedCertificate {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("roster-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let made = SelfSignedCertificate(directory: directory)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", made.keyPath, "-out", made.certificatePath, "-days", "2",
            "-subj", "/CN=\(hostName)/O=Roster tests",
            "-addext", "subjectAltName=DNS:\(hostName),DNS:localhost,IP:127.0.0.1",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ListenerError("openssl req (is the openssl package installed?)", 0)
        }
        return made
    }

    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
