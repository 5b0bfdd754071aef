import RosterJournal
import RosterKit

/// How every write the app makes reaches the journal: `write` records it pending, sends it,
/// and records the answer. Without a journal (it could not be opened) writes go straight through.
public struct ChangeRecorder: Sendable {
    public let journal: ChangeJournal?
    /// The connection's name, on each entry.
    public let connection: String

    public init(journal: ChangeJournal?, connection: String) {
        self.journal = journal
        self.connection = connection
    }

    /// No journal: tests of other things, and a journal that could not be opened.
    public static let none = ChangeRecorder(journal: nil, connection: "")

    /// One write about to be sent: what it is to, and the values before and as asked.
    struct Write: Sendable {
        var kind: JournalEntry.Kind
        var objectID: String
        var label: String
        var action: JournalEntry.Action
        var before: JournalValue?
        var after: JournalValue?
        var etag: String?
        var undoes: Int64?

        static func update(_ user: User, to draft: UserDraft) -> Write {
            var after = user
            after.name = draft.name
            after.email = draft.email
            if let role = draft.role { after.role = role }
            if let status = draft.status { after.status = status }
            for (attribute, value) in draft.attributes {
                let value = value.trimmingCharacters(in: .whitespaces)
                after.attributes[attribute] = value.isEmpty ? nil : value
            }
            return Write(kind: .user, objectID: user.id, label: user.label, action: .updateUser, before: .user(user), after: .user(after),
                         etag: user.scim?.version)
        }

        static func delete(_ user: User) -> Write {
            Write(kind: .user, objectID: user.id, label: user.label, action: .deleteUser, before: .user(user), etag: user.scim?.version)
        }

        static func create(_ draft: UserDraft) -> Write {
            Write(kind: .user, objectID: "", label: "\(draft.name) <\(draft.email)>", action: .createUser)
        }

        static func membership(_ user: User, _ group: GroupReference, adding: Bool) -> Write {
            Write(kind: .membership, objectID: user.id, label: user.label, action: adding ? .addMember : .removeMember,
                  before: .membership(group: group, isMember: !adding), after: .membership(group: group, isMember: adding))
        }

        static func membership(userID: String, label: String, _ group: GroupReference, adding: Bool) -> Write {
            Write(kind: .membership, objectID: userID, label: label, action: adding ? .addMember : .removeMember,
                  before: .membership(group: group, isMember: !adding), after: .membership(group: group, isMember: adding))
        }

        /// No password is ever journalled: only that one was set.
        static func resetPassword(_ user: User) -> Write {
            Write(kind: .user, objectID: user.id, label: user.label, action: .resetPassword)
        }

        static func unlock(_ user: User) -> Write {
            Write(kind: .user, objectID: user.id, label: user.label, action: .unlock)
        }
    }

    /// The values the answer says the object now has, for the entry's `after` (a create's new
    /// id and values, a group's new name); nil keeps what was asked.
    typealias Landed<T> = @Sendable (T) -> (value: JournalValue?, objectID: String?)

    /// Records `write` pending, sends it with `send`, and records how it ended. A journal
    /// that cannot be written stops the write before it is sent, with a clear error: a change
    /// that undo would not know about is not made.
    @discardableResult
    func record<T: Sendable>(_ write: Write, run: String? = nil, landed: Landed<T>? = nil,
                             _ send: @Sendable () async throws -> T) async throws -> T {
        guard let journal else { return try await send() }
        let id: Int64
        do {
            id = try await journal.begin(JournalEntry(
                runID: run, connection: connection, kind: write.kind, objectID: write.objectID, label: write.label, action: write.action,
                before: write.before, after: write.after, etag: write.etag, undoes: write.undoes))
        } catch {
            throw APIError.invalidRequest("The change journal (\(journal.path)) could not be written, so nothing was sent: \(error)")
        }
        do {
            let result = try await send()
            let outcome = landed?(result)
            journal.complete(id, state: .done, after: outcome?.value, objectID: outcome?.objectID, etag: outcome?.value?.user?.scim?.version)
            return result
        } catch {
            journal.complete(id, state: Self.state(after: error), detail: APIError.shown(for: error).map { "\($0)" } ?? "cancelled")
            throw error
        }
    }

    /// A failure that proves nothing landed is `failed`; one after which it may have (a lost
    /// answer, a cancel mid-request, a server that failed half way) is `unknown`.
    static func state(after error: any Error) -> JournalEntry.State {
        guard let error = error as? APIError else { return .unknown }
        switch error {
        case .serverError, .createOutcomeUnknown, .unexpectedStatus, .decodingFailed, .missingData, .unsuccessfulResponse: return .unknown
        default: return error.requestMayHaveArrived ? .unknown : .failed
        }
    }
}

extension User {
    /// "Ana Silva <ana@example.com>", as the journal and the undo summary name a user.
    var label: String { "\(name) <\(email)>" }
}
