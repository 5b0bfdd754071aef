import Hummingbird
import RosterKit

/// `GET /api/v1/audit` (the `admin` scope): the audit log, newest first, filtered and paged.
struct AuditHandlers: Sendable {
    let log: any AuditLog

    func list(_ request: Request, context: some RequestContext) async throws -> Response {
        let query = try AuditQueryParsing.parse(request.uri.query)
        let items = try await log.auditEntries(query)
        let next = items.count == query.limit ? items.last.map(\.seq) : nil
        return JSONResponse.make(APIResponse.success(AuditPage(items: items, nextBefore: next)))
    }
}
