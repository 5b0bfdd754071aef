import Logging
import ServiceLifecycle
import UnixSignals

/// Reads the certificate and key again on each SIGHUP, for the standalone server. A file that
/// cannot be served is logged and the certificate in use stays.
struct CertificateReloader: Service {
    let certificate: ServerCertificate
    /// Trapped before the server starts, so a SIGHUP right after "listening on" never meets
    /// the default action (which ends the process).
    let signals: UnixSignalsSequence
    let logger: Logger

    static func make(certificate: ServerCertificate, logger: Logger) async -> CertificateReloader {
        CertificateReloader(certificate: certificate, signals: await UnixSignalsSequence(trapping: .sighup), logger: logger)
    }

    func run() async throws {
        for await _ in signals.cancelOnGracefulShutdown() {
            do {
                try certificate.reload()
                logger.notice("SIGHUP: certificate and key read again", metadata: [
                    "certificate": "\(certificate.files.certificatePath)", "subject": "\(certificate.subject)"])
            } catch {
                logger.error("SIGHUP: the certificate in use stays: \(error.description)")
            }
        }
    }
}
