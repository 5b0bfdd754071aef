import Foundation
import RosterKit
@testable import RosterServer

/// Two connection pools on one fresh, migrated database, as two roster-server processes have;
/// both closed and the database dropped whatever `body` does. The first pool's work may be
/// given a deadline of its own.
func withTwoPools(
    firstWorkDeadline: Duration = PostgresDatabase.notUnderTest,
    _ body: (PostgresDatabase, PostgresDatabase) async throws -> Void
) async throws {
    let (url, name) = try await TestPostgres.shared.createDatabase()
    let first = try await PostgresDatabase.open(url: url, logger: quietLogger, workDeadline: firstWorkDeadline)
    let second = try await PostgresDatabase.open(url: url, logger: quietLogger, workDeadline: PostgresDatabase.notUnderTest)
    let result: Result<Void, any Error>
    do {
        try await body(first, second)
        result = .success(())
    } catch {
        result = .failure(error)
    }
    await first.close()
    await second.close()
    try? await TestPostgres.shared.dropDatabase(named: name)
    try result.get()
}

/// Users with one name and one creation time, so their order is their ids' (ties broken by id).
func tiedUsers(count: Int = 70) -> [User] {
    let tiedTime = DemoData.firstMillisecond + 1000
    return (0..<count).map { index in
        User(id: UserID.make(milliseconds: tiedTime, randomBits: UInt64(index)), name: "Tied Ivanova",
             email: "tied\(index)@example.com", role: .member, status: .active,
             createdAt: Milliseconds.date(tiedTime), updatedAt: Milliseconds.date(tiedTime))
    }
}
