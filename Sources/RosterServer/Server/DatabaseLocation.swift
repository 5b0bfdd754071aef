/// The database a server keeps its directory in: a SQLite file, the embedded default, or a
/// PostgreSQL database shared by any number of replicas.
public enum DatabaseLocation: Sendable, Equatable {
    case sqlite(path: String)
    /// A `postgres://` or `postgresql://` URL.
    case postgres(url: String)

    /// A `postgres://` or `postgresql://` URL is PostgreSQL; `sqlite:PATH` or any other text is
    /// a SQLite file's path.
    public init(_ text: String) {
        if PostgresURL.isPostgres(text) {
            self = .postgres(url: text)
        } else if text.hasPrefix("sqlite://") {
            self = .sqlite(path: String(text.dropFirst("sqlite://".count)))
        } else if text.hasPrefix("sqlite:") {
            self = .sqlite(path: String(text.dropFirst("sqlite:".count)))
        } else {
            self = .sqlite(path: text)
        }
    }
}
