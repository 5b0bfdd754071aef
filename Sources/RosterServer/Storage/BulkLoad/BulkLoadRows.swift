import RosterKit

/// A chunk of SQLite's bulk load, ready to bind: every text column of every row back to back in
/// one buffer, so the inserting thread only points SQLite at bytes (`BulkLoadStatement`).
///
/// Binding through `StatementArguments` made the inserts 7.5 s of a million-user seed, against
/// 3 s for SQLite itself inserting the same rows (`INSERT … SELECT` in the sqlite3 shell).
struct BulkLoadRows: Sendable {
    /// The text columns, in `UserRow.insertSQL`'s order of parameters.
    enum TextColumn: Int, CaseIterable {
        case id, name, email, role, status, nameKey, emailKey, json
    }

    private(set) var bytes: [UInt8] = []
    /// Where each row's texts end in `bytes`: `TextColumn.allCases.count` per row.
    private(set) var ends: [Int] = []
    /// Each row's creation and update times, in milliseconds.
    private(set) var times: [(created: Int64, updated: Int64)] = []

    var count: Int { times.count }

    init(capacity: Int) {
        bytes.reserveCapacity(capacity * 320)
        ends.reserveCapacity(capacity * TextColumn.allCases.count)
        times.reserveCapacity(capacity)
    }

    /// `users` made ready, their grams added to `counts` (a `BulkLoadPipeline`'s `make`).
    static func make(_ users: ArraySlice<User>, counting counts: inout ShortGramCounts) -> BulkLoadRows {
        var rows = BulkLoadRows(capacity: users.count)
        for user in users {
            let nameKey = SortKey.of(user.name), emailKey = SortKey.of(user.email)
            rows.append(user, nameKey: nameKey, emailKey: emailKey, json: UserJSON.objectText(user))
            counts.add(role: user.role.rawValue, status: user.status.rawValue, keys: [nameKey, emailKey])
        }
        return rows
    }

    mutating func append(_ user: User, nameKey: String, emailKey: String, json: String) {
        for text in [user.id, user.name, user.email, user.role.rawValue, user.status.rawValue, nameKey, emailKey, json] {
            bytes.append(contentsOf: text.utf8)
            ends.append(bytes.count)
        }
        times.append((Milliseconds.of(user.createdAt), Milliseconds.of(user.updatedAt)))
    }

    /// The range of `bytes` holding `column` of row `row`.
    func range(of column: TextColumn, inRow row: Int) -> Range<Int> {
        let field = row * TextColumn.allCases.count + column.rawValue
        return (field == 0 ? 0 : ends[field - 1])..<ends[field]
    }
}
