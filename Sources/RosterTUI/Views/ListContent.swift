/// One user as a line of the list draws them: the texts as the directory sent them (the canvas
/// sanitises and measures them as it draws) and how the role and status are coloured.
public struct UserRowContent: Equatable, Sendable {
    public var name: String
    public var email: String
    public var role: String
    /// Admins stand out in the role column.
    public var isAdmin: Bool
    public var status: String
    public var statusTone: StatusTone

    public init(name: String, email: String, role: String, isAdmin: Bool, status: String, statusTone: StatusTone) {
        self.name = name
        self.email = email
        self.role = role
        self.isAdmin = isAdmin
        self.status = status
        self.statusTone = statusTone
    }
}

/// How a user's status is coloured; a status Roster does not know is dim.
public enum StatusTone: Equatable, Sendable {
    case active, suspended, invited, unknown
}

/// The list's order as the view shows it: its label in the title ("name ↑"), and an arrow on
/// the title of the column it sorts by, when that column is shown.
public struct SortContent: Equatable, Sendable {
    public enum Column: Equatable, Sendable { case name, email }
    public var label: String
    /// nil when the list is sorted by something it has no column for (the creation time).
    public var column: Column?
    public var ascending: Bool

    public init(label: String, column: Column?, ascending: Bool) {
        self.label = label
        self.column = column
        self.ascending = ascending
    }
}

/// One row of the user list.
public enum ListRowContent: Equatable, Sendable {
    case user(UserRowContent)
    /// A row whose page is still loading.
    case placeholder
    /// A row whose page failed; the first row of that page says why and how to retry.
    case failed(message: String, isFirstOfPage: Bool)
}

public struct ListContent: Equatable, Sendable {
    /// The rows from `firstIndex` on, as many as fit (or fewer at the end of the list).
    public var rows: [ListRowContent]
    /// The index in the whole list of `rows[0]`.
    public var firstIndex: Int
    public var selectedIndex: Int?
    /// nil until the first page has answered.
    public var total: Int?
    /// The server has not said how many there are: at least `total` ("41 / 100+").
    public var totalIsLowerBound = false
    /// Whether the directory knows roles (a SCIM service may not): the role column is left out.
    public var showsRoles = true
    public var sort: SortContent
    public var search: String
    /// The filters in force, as the title shows them ("status suspended · role admin"); "" for none.
    public var filter = ""
    /// Shown when there are no rows (still loading, nobody matches…).
    public var emptyMessage: String?
    public var spinner: String?
    /// Whether the list has the keyboard (it does unless a dialog is open).
    public var focused: Bool
    /// The indices (in the whole list) of the rows on screen that are marked.
    public var marked: Set<Int> = []

    public init(rows: [ListRowContent], firstIndex: Int, selectedIndex: Int?, total: Int?, sort: SortContent,
                search: String = "", emptyMessage: String? = nil, spinner: String? = nil, focused: Bool = true) {
        self.rows = rows
        self.firstIndex = firstIndex
        self.selectedIndex = selectedIndex
        self.total = total
        self.sort = sort
        self.search = search
        self.emptyMessage = emptyMessage
        self.spinner = spinner
        self.focused = focused
    }
}
