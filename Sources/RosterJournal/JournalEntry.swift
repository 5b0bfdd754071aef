import Foundation
import RosterKit

/// One write Roster made (or was about to make) to a directory: written `pending` before the
/// request is sent and completed after the answer, so a journal left by a crash says which
/// writes may have landed (`pending` ones, turned `unknown` at the next start).
public struct JournalEntry: Sendable, Equatable, Identifiable {
    /// What kind of directory object the write was to.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case user, group, membership
    }

    /// What the write did.
    public enum Action: String, Sendable, Codable, CaseIterable {
        case createUser, updateUser, deleteUser
        case createGroup, renameGroup, deleteGroup
        case addMember, removeMember
        /// Journalled without the password, and not undoable.
        case resetPassword
        case unlock
    }

    public enum State: String, Sendable, Codable, CaseIterable {
        /// Written before the request was sent; no answer yet.
        case pending
        case done
        case failed
        /// The request may or may not have landed (a crash, a lost answer).
        case unknown
    }

    /// Set by the journal when the entry is written.
    public var id: Int64
    /// The run it belongs to; nil for one change made from a form or a key.
    public var runID: String?
    public var time: Date
    /// The connection's name, as the picker and `--connection` call it.
    public var connection: String
    public var kind: Kind
    /// The user's id (a membership's too); the group's for a group.
    public var objectID: String
    /// Who or what, for people: "Ana Silva <ana@example.com>", "Sales".
    public var label: String
    public var action: Action
    public var before: JournalValue?
    public var after: JournalValue?
    /// The server's version of the object, where it has one (SCIM `meta.version`).
    public var etag: String?
    public var state: State
    /// Why it failed, or what else is worth saying ("recreated as id 42").
    public var detail: String?
    /// The entry this write took back, when it was an undo.
    public var undoes: Int64?

    public init(
        id: Int64 = 0, runID: String? = nil, time: Date = Date(), connection: String, kind: Kind, objectID: String, label: String,
        action: Action, before: JournalValue? = nil, after: JournalValue? = nil, etag: String? = nil,
        state: State = .pending, detail: String? = nil, undoes: Int64? = nil
    ) {
        self.id = id
        self.runID = runID
        self.time = time
        self.connection = connection
        self.kind = kind
        self.objectID = objectID
        self.label = label
        self.action = action
        self.before = before
        self.after = after
        self.etag = etag
        self.state = state
        self.detail = detail
        self.undoes = undoes
    }

    /// Whether undo can take this write back. A password reset cannot (no password is ever
    /// kept), nor an unlock, nor a write that surely did not land.
    public var isUndoable: Bool {
        guard state != .failed else { return false }
        switch action {
        case .resetPassword, .unlock: return false
        default: return true
        }
    }
}

/// An object's values as the model types encode them (the wire format), before or after a write.
public enum JournalValue: Sendable, Equatable, Codable {
    case user(User)
    case group(Group)
    /// Whether the user is in the group.
    case membership(group: GroupReference, isMember: Bool)

    public var user: User? {
        if case .user(let user) = self { user } else { nil }
    }

    public var group: Group? {
        if case .group(let group) = self { group } else { nil }
    }

    /// JSON text, as stored.
    func encoded() throws -> String {
        String(decoding: try Self.encoder.encode(self), as: UTF8.self)
    }

    static func decoded(_ text: String) throws -> JournalValue {
        try Self.decoder.decode(JournalValue.self, from: Data(text.utf8))
    }

    // One of each for every entry: making an encoder (its date strategy) for each value cost
    // the bulk run measurably. Both are safe to share across threads.
    private static let encoder = WireFormat.makeEncoder()
    private static let decoder = WireFormat.makeDecoder()
}
