import Foundation
import GRDB
import ServiceLifecycle

/// A server that is listening. Keep it to stop the server; dropping it does not stop it.
public final class RunningServer: Sendable {
    /// Where the server listens, e.g. `http://127.0.0.1:49152` (the real port when 0 was asked).
    public let url: URL
    /// The token clients must send as `Authorization: Bearer <token>`.
    public let token: String

    private let certificate: ServerCertificate?
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    init(url: URL, token: String, certificate: ServerCertificate?, group: ServiceGroup, task: Task<Void, any Error>) {
        self.url = url
        self.token = token
        self.certificate = certificate
        self.group = group
        self.task = task
    }

    /// Reads the TLS certificate and key again (what SIGHUP does for the standalone server):
    /// new connections get the new certificate, open ones carry on. Nothing without TLS.
    public func reloadCertificate() throws(TLSFileError) {
        try certificate?.reload()
    }

    /// Stops accepting connections, lets in-flight requests finish, closes the database, and
    /// returns when all of that is done. Calling it again is harmless.
    public func shutdown() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
    }

    /// Returns when the server has stopped (after `shutdown()` or a configured signal);
    /// throws if it stopped because of an error.
    public func waitUntilStopped() async throws {
        try await task.value
    }
}
