import Observation
import RosterKit

/// The groups view: the directory's groups on the left, the selected group's members on the
/// right. Keys move in the pane that has the focus. The members follow the selected group
/// once it rests (as the user detail pane does), so holding j reads no member lists.
@MainActor
@Observable
public final class GroupsViewModel {
    public enum Focus: Sendable, Equatable {
        case groups
        case members
    }

    public static let groupsPerPage = 100

    public let groups: PagedItems<Group>
    public let members: PagedItems<User>
    public private(set) var focus = Focus.groups
    /// The group whose members the right pane shows (or is loading).
    public private(set) var shownGroup: Group?
    /// The search in force over the groups' names ("" lists every group).
    public private(set) var search = ""

    @ObservationIgnored let directory: any Directory
    @ObservationIgnored private let activity: Activity
    /// Until the selection rests: re-armed by each move, not restarted (see `MovableTimer`).
    @ObservationIgnored private let settle: MovableTimer
    @ObservationIgnored private(set) var hasStarted = false

    public init(directory: any Directory, activity: Activity, perPage: Int = UserQuery.defaultPerPage) {
        self.directory = directory
        self.activity = activity
        groups = PagedItems(perPage: Self.groupsPerPage, activity: activity)
        members = PagedItems(perPage: perPage, activity: activity)
        settle = MovableTimer(activity: activity)
        groups.onSelectionChange = { [weak self] group in self?.follow(group) }
    }

    /// Loads the groups the first time the view opens; later openings show what was read.
    public func start() {
        guard !hasStarted else { return }
        hasStarted = true
        groups.reload(fetch(matching: search))
    }

    /// Lists the groups whose name contains `text`, in any case (the server's search); ""
    /// lists them all. The members follow the selection as it lands.
    public func setSearch(_ text: String) {
        guard text != search else { return }
        search = text
        guard hasStarted else { return }
        focusGroups()
        groups.reload(fetch(matching: text))
    }

    private func fetch(matching text: String) -> PagedItems<Group>.Fetch {
        let directory = self.directory
        let search = text.isEmpty ? nil : text
        return { page, perPage in
            try await directory.listGroups(GroupQuery(page: page, perPage: perPage, search: search))
        }
    }

    /// Reads the groups again, keeping `id` (else the selected group) selected; the members
    /// follow.
    public func refresh(selecting id: String? = nil) {
        guard hasStarted else { return start() }
        groups.reload(selecting: id)
        if shownGroup != nil { members.reload() }
    }

    /// Reads the shown group's members again (after a change to them).
    public func refreshMembers() {
        members.reload()
    }

    public var selectedGroup: Group? { groups.selected }
    public var selectedMember: User? { focus == .members ? members.selected : nil }

    public func setViewportHeight(_ height: Int) {
        groups.setViewportHeight(height)
        members.setViewportHeight(height)
    }

    // MARK: Focus and movement

    public func focusMembers() {
        guard selectedGroup != nil, focus != .members else { return }
        focus = .members
    }

    public func focusGroups() {
        if focus != .groups { focus = .groups }
    }

    public func moveDown() { focus == .groups ? groups.moveDown() : members.moveDown() }
    public func moveUp() { focus == .groups ? groups.moveUp() : members.moveUp() }
    public func pageDown() { focus == .groups ? groups.pageDown() : members.pageDown() }
    public func pageUp() { focus == .groups ? groups.pageUp() : members.pageUp() }
    public func moveToTop() { focus == .groups ? groups.moveToTop() : members.moveToTop() }
    public func moveToBottom() { focus == .groups ? groups.moveToBottom() : members.moveToBottom() }

    /// Retries what failed: the groups, else the members. Returns whether anything had failed.
    @discardableResult
    public func retry() -> Bool {
        groups.retry() || members.retry()
    }

    public var hasFailure: Bool {
        groups.state.isFailed || groups.moreFailure != nil || members.state.isFailed || members.moreFailure != nil
    }

    // MARK: Members following the selection

    private func follow(_ group: Group?) {
        guard let group else {
            settle.disarm()
            shownGroup = nil
            focusGroups()
            members.clear()
            return
        }
        if shownGroup?.id == group.id {
            // The same group, changed (renamed, a member count): show it; the members stand.
            settle.disarm()
            if shownGroup != group { shownGroup = group }
            return
        }
        // The first group shows at once; later ones once the selection rests.
        if shownGroup == nil {
            settle.disarm()
            show(group)
        } else {
            settle.arm(after: UserDetailModel.settleDelay) { [weak self] in self?.show(group) }
        }
    }

    private func show(_ group: Group) {
        if shownGroup?.id != group.id { members.clear() }
        shownGroup = group
        let directory = self.directory
        let id = group.id
        members.reload { page, perPage in
            try await directory.members(of: id, UserQuery(page: page, perPage: perPage))
        }
    }
}
