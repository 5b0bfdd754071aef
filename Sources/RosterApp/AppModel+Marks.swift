import RosterKit

/// Marks: `Space` marks, `*` marks all matching, `u` unmarks, `y` copies the marked users'
/// emails.
extension AppModel {
    /// The most emails `y` copies from "all matching": terminals cap what OSC 52 may carry
    /// (tens of kilobytes to a few hundred), and a paste of more is not what a person wants.
    public nonisolated static let copyLimit = 2000

    /// `Space`: marks the selected user (or unmarks them) and moves down, as mutt and k9s do.
    public func toggleMark() {
        guard listIdle else { return }
        let replacing = list.marksAreForAnotherQuery ? list.marks.allMatching : nil
        guard list.toggleMarkOnSelection() else {
            showStatus("No user selected", kind: .warning)
            return
        }
        if let replacing {
            showStatus("Marks on all users matching \(Self.describe(replacing)) replaced by this one", kind: .warning)
        }
        list.moveDown()
    }

    /// `*`: every user of the search and filters in force, not only the loaded pages.
    public func markAllMatching() {
        guard listIdle else { return }
        guard list.markAllMatching(), let query = list.marks.allMatching else {
            showStatus("No users to mark", kind: .warning)
            return
        }
        let marks = list.marks
        let one = marks.count == 1 && !marks.isLowerBound
        showStatus(one ? "Marked the one user matching \(Self.describe(query))" : "Marked all \(marks.countLabel) users matching \(Self.describe(query))")
    }

    /// `u`: no user marked.
    public func unmarkAll() {
        guard listIdle, !list.marks.isEmpty else { return }
        let count = list.marks.countLabel
        list.unmarkAll()
        showStatus("Unmarked \(count)")
    }

    /// "“ana” · status suspended", or "the whole directory".
    static func describe(_ query: Marks.Query) -> String {
        let parts = (query.search.isEmpty ? [] : ["“\(query.search)”"]) + (query.filter.isEmpty ? [] : [query.filter.summary])
        return parts.isEmpty ? "(everyone)" : parts.joined(separator: " · ")
    }

    /// `y` with marks: the marked users' emails, one per line. "All matching" is read page by
    /// page first, at most `copyLimit`, and the message says when that cut it short.
    func copyMarkedEmails() {
        guard let clipboard else {
            showStatus("No clipboard here", kind: .warning)
            return
        }
        let marks = list.marks
        guard let query = marks.allMatching, case .allMatching(_, let except) = marks.scope else {
            let emails = marks.users.map(\.email)
            clipboard.copy(emails.joined(separator: "\n"))
            showStatus(emails.count == 1 ? "Copied \(emails[0])" : "Copied \(CountFormat.grouped(emails.count)) emails")
            return
        }
        let directory = self.directory
        _ = activity.startLoad { [weak self] in
            do {
                let emails = try await Self.emails(of: query, except: except, limit: Self.copyLimit, from: directory)
                guard let self else { return }
                clipboard.copy(emails.joined(separator: "\n"))
                if emails.count >= Self.copyLimit, marks.count > emails.count || marks.isLowerBound {
                    showStatus("Copied the first \(CountFormat.grouped(emails.count)) of \(marks.countLabel) emails (the most one copy takes)", kind: .warning)
                } else {
                    showStatus("Copied \(CountFormat.grouped(emails.count)) emails")
                }
            } catch {
                guard let self, let failure = APIError.shown(for: error) else { return }
                presentError(title: "Could not read the marked users' emails", error: failure) { [weak self] in self?.copyMarkedEmails() }
            }
        }
    }

    nonisolated static func emails(of query: Marks.Query, except: Set<String>, limit: Int, from directory: any Directory) async throws -> [String] {
        var emails: [String] = []
        try await EveryPage(directory: directory, of: query).read { page in
            emails += page.items.lazy.filter { !except.contains($0.id) }.map(\.email)
            return emails.count < limit
        }
        return Array(emails.prefix(limit))
    }
}
