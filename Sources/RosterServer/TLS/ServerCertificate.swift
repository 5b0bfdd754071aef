import Logging
import NIOCore
import NIOSSL
import NIOConcurrencyHelpers

/// The certificate the server presents, swappable while it runs: every new handshake asks for
/// the current one (`sslContextCallback`), so a SIGHUP after a rotation takes effect for new
/// connections while the open ones carry on with the session they have.
final class ServerCertificate: Sendable {
    let files: TLSFiles
    private let current: NIOLockedValueBox<TLSFiles.Loaded>

    init(files: TLSFiles) throws(TLSFileError) {
        self.files = files
        current = NIOLockedValueBox(try files.load())
    }

    /// Reads the files again; on failure the certificate in use stays and the error is thrown.
    func reload() throws(TLSFileError) {
        let loaded = try files.load()
        current.withLockedValue { $0 = loaded }
    }

    /// The leaf certificate's subject, for the log.
    var subject: String {
        current.withLockedValue { loaded in
            loaded.chain.first.map { String(describing: $0) } ?? "no certificate"
        }
    }

    /// TLS 1.2 and up, HTTP/2 and HTTP/1.1 by ALPN (Hummingbird's HTTP/2 channel adds the
    /// protocols), the chain and key of the moment at each handshake.
    func tlsConfiguration() -> TLSConfiguration {
        let loaded = current.withLockedValue { $0 }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: loaded.chain.map { .certificate($0) }, privateKey: .privateKey(loaded.key))
        configuration.minimumTLSVersion = .tlsv12
        configuration.sslContextCallback = { [self] _, promise in
            let loaded = current.withLockedValue { $0 }
            var override = NIOSSLContextConfigurationOverride()
            override.certificateChain = loaded.chain.map { .certificate($0) }
            override.privateKey = .privateKey(loaded.key)
            promise.succeed(override)
        }
        return configuration
    }
}
