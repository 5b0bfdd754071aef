import Foundation
import NIOCore
import NIOSSL
import RosterKit
#if canImport(Glibc)
import Glibc
#endif

/// The certificate chain and private key `roster-server --tls-cert --tls-key` serves HTTPS with,
/// as PEM files. Read at start and again on SIGHUP (`ServerCertificate`).
public struct TLSFiles: Sendable, Equatable {
    public var certificatePath: String
    public var keyPath: String

    public init(certificatePath: String, keyPath: String) {
        self.certificatePath = certificatePath
        self.keyPath = keyPath
    }

    /// What a handshake presents: the chain, leaf first, and its key.
    struct Loaded: Sendable {
        var chain: [NIOSSLCertificate]
        var key: NIOSSLPrivateKey
    }

    /// Reads both files. A key that others may read is refused, as ssh refuses such a key:
    /// whoever can read it can pose as this server.
    func load() throws(TLSFileError) -> Loaded {
        try Self.checkPrivate(keyPath)
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificatePath)
        } catch {
            throw TLSFileError("The certificate file \(certificatePath) cannot be read as PEM certificates (\(Self.reason(error))).")
        }
        guard !chain.isEmpty else { throw TLSFileError("The certificate file \(certificatePath) holds no PEM certificate.") }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(file: keyPath, format: .pem)
        } catch {
            throw TLSFileError("The key file \(keyPath) cannot be read as an unencrypted PEM private key (\(Self.reason(error))).")
        }
        // A key that does not belong to the certificate would fail every handshake: say so now.
        do {
            var configuration = TLSConfiguration.makeServerConfiguration(
                certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
            configuration.minimumTLSVersion = .tlsv12
            _ = try NIOSSLContext(configuration: configuration)
        } catch {
            throw TLSFileError("The key in \(keyPath) does not match the certificate in \(certificatePath) (\(Self.reason(error))).")
        }
        return Loaded(chain: chain, key: key)
    }

    /// Refuses a key file with any permission for the group or others (mode & 077), or one
    /// that is missing.
    static func checkPrivate(_ path: String) throws(TLSFileError) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw TLSFileError("The key file \(path) cannot be read (\(String(cString: strerror(errno)))).")
        }
        if let mode = PrivateFileMode.looseMode(of: path) {
            throw TLSFileError(
                "The key file \(path) is open to others (mode \(mode)); a private key must be readable by its owner only: chmod 600 \(path).")
        }
    }

    /// BoringSSL's error stack says little to a person; its first entry is enough.
    private static func reason(_ error: any Error) -> String {
        if let error = error as? NIOSSLError, case .failedToLoadCertificate = error { return "not a PEM certificate" }
        if let error = error as? NIOSSLError, case .failedToLoadPrivateKey = error { return "not a PEM private key" }
        if let error = error as? IOError { return error.description }
        return String(describing: error)
    }
}

/// A certificate or key file that cannot be served, in a sentence that says which and why.
public struct TLSFileError: Error, CustomStringConvertible, Equatable {
    public let description: String
    init(_ description: String) { self.description = description }
}
