import Foundation
import PostgresNIO
@testable import RosterServer
import Testing

@Suite("--database: SQLite paths and PostgreSQL URLs")
struct DatabaseLocationTests {
    @Test("a path or sqlite: is SQLite; postgres:// and postgresql:// are PostgreSQL")
    func kinds() {
        #expect(DatabaseLocation("/var/lib/roster/users.sqlite") == .sqlite(path: "/var/lib/roster/users.sqlite"))
        #expect(DatabaseLocation("users.sqlite") == .sqlite(path: "users.sqlite"))
        #expect(DatabaseLocation("sqlite:/tmp/u.sqlite") == .sqlite(path: "/tmp/u.sqlite"))
        #expect(DatabaseLocation("sqlite:///tmp/u.sqlite") == .sqlite(path: "/tmp/u.sqlite"))
        #expect(DatabaseLocation("postgres://roster@db:5433/dir") == .postgres(url: "postgres://roster@db:5433/dir"))
        #expect(DatabaseLocation("postgresql://db/dir") == .postgres(url: "postgresql://db/dir"))
    }

    @Test("a URL's user, password, host, port, database and sslmode reach the client; defaults fill the rest")
    func urlParts() throws {
        let full = try PostgresURL.configuration("postgres://ro%40ster:p%2Fss@db.internal:5433/the%20dir?sslmode=disable")
        #expect(full.host == "db.internal")
        #expect(full.port == 5433)
        #expect(full.username == "ro@ster")
        #expect(full.password == "p/ss")
        #expect(full.database == "the dir")

        let bare = try PostgresURL.configuration("postgres://db")
        #expect(bare.username == "postgres")
        #expect(bare.database == "postgres")
        #expect(bare.port == 5432)
        #expect(bare.password == nil)

        let socket = try PostgresURL.configuration("postgres://roster@/dir?host=/run/postgresql")
        #expect(socket.unixSocketPath == "/run/postgresql/.s.PGSQL.5432")
        #expect(socket.host == nil)

        #expect(throws: PostgresURL.Invalid.self) { try PostgresURL.configuration("postgres://db/dir?sslmode=verify-full") }
        #expect(throws: PostgresURL.Invalid.self) { try PostgresURL.configuration("mysql://db/dir") }
        #expect(PostgresURL.redacted("postgres://roster:secret@db/dir") == "postgres://roster:***@db/dir")
    }
}
