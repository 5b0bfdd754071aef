extension HealthStatus {
    /// In `features` when the server has groups: `/api/v1/groups`, and `groups` on every user.
    /// A client offers group views only then (older roster-servers have neither).
    public static let groupsFeature = "groups"
}
