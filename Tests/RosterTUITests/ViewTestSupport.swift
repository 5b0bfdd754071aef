import Foundation
import RosterKit
import RosterKitTestSupport
@testable import RosterTUI

/// Users with names in many scripts, widths and lengths.
let mixedUsers: [User] = [
    User.fixture(id: "u1", name: "Ana Silva", email: "ana@example.com", role: .admin, status: .active),
    User.fixture(id: "u2", name: "王小明", email: "wang@example.cn", role: .member, status: .invited),
    User.fixture(id: "u3", name: "🦊 Fox Mulder", email: "fox@example.com", role: .viewer, status: .suspended),
    User.fixture(id: "u4", name: "Zoë Ångström", email: "zoe@example.se", role: .member, status: .active),
    User.fixture(id: "u5", name: "김민준", email: "minjun@example.kr", role: .member, status: .active),
    User.fixture(id: "u6", name: "محمد علي", email: "m.ali@example.eg", role: .member, status: .active),
]

@MainActor
func grid(_ columns: Int, _ rows: Int) -> GridCanvas {
    TextWidth.activateUTF8Locale()
    return GridCanvas(columns: columns, rows: rows)
}

extension GridCanvas {
    /// Waits (by yielding, then by time) until the screen shows `text`.
    func eventuallyShows(_ text: String) async -> Bool {
        await eventuallyAfterYields(maximumYields: 100_000) { self.text.contains(text) }
    }
}
