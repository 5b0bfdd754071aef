extension HealthStatus {
    /// In `features` when the server keeps an audit log of changes (`GET /api/v1/audit`, for
    /// tokens with the `admin` scope). A client offers a user's history only then.
    public static let auditFeature = "audit"
}
