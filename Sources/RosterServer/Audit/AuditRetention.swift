import Foundation
import Logging
import ServiceLifecycle

/// Deletes audit entries older than the retention setting (`--audit-retention`), at start and
/// then every hour, until the server stops. Several servers on one database may all prune:
/// deleting by age twice deletes nothing more.
struct AuditRetention: Service {
    let log: any AuditLog
    let keep: TimeInterval
    let now: @Sendable () -> Date
    let logger: Logger
    static let every: Duration = .seconds(3600)

    func run() async throws {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                let pruned = try await log.pruneAudit(before: now().addingTimeInterval(-keep))
                if pruned > 0 { logger.info("pruned audit entries past retention", metadata: ["entries": "\(pruned)"]) }
            } catch {
                logger.error("could not prune the audit log", metadata: ["error": "\(error)"])
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: Self.every) }
        }
    }
}
