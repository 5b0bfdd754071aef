/// What the tests read from `scripts/lib/postgres.sh start`: the cluster's URL is the line of
/// its output that is one; anything else the script printed is not part of it.
public enum PostgresScript {
    /// The `postgres://` line of `output`, or nil when there is none.
    public static func clusterURL(in output: String) -> String? {
        output.split(separator: "\n").last { $0.hasPrefix("postgres://") }.map(String.init)
    }
}
