import GRDB
import RosterKit

/// The two statements behind one group list request: the page and the total. Groups are few
/// next to users (a directory has hundreds, not a hundred thousand), so a search is `instr`
/// over the folded names rather than an index of its own.
struct GroupListPlan {
    var pageSQL: String
    var pageArguments: StatementArguments
    var countSQL: String
    var countArguments: StatementArguments

    init(_ query: GroupQuery) {
        let (product, overflow) = (query.page - 1).multipliedReportingOverflow(by: query.perPage)
        let offset = overflow ? Int(Int32.max) : max(0, product)
        let search = query.search.map(SortKey.of) ?? ""
        let order = "ORDER BY \(Self.orderBy(query.sort)) LIMIT ? OFFSET ?"
        if search.isEmpty {
            pageSQL = "SELECT \(GroupRow.columns) FROM groups \(order)"
            pageArguments = [query.perPage, offset]
            countSQL = "SELECT count(*) FROM groups"
            countArguments = []
        } else if search.unicodeScalars.contains(where: UserValidation.isForbiddenInText) {
            // No name holds a control character, so such a search matches no group.
            pageSQL = "SELECT \(GroupRow.columns) FROM groups WHERE 0 LIMIT ? OFFSET ?"
            pageArguments = [query.perPage, offset]
            countSQL = "SELECT 0"
            countArguments = []
        } else {
            pageSQL = "SELECT \(GroupRow.columns) FROM groups WHERE instr(name_key, ?) > 0 \(order)"
            pageArguments = [search, query.perPage, offset]
            countSQL = "SELECT count(*) FROM groups WHERE instr(name_key, ?) > 0"
            countArguments = [search]
        }
    }

    /// Names are unique, but the id still breaks ties so every order is total.
    static func orderBy(_ sort: GroupSort) -> String {
        switch sort {
        case .name: "groups.name_key, groups.id"
        case .nameDescending: "groups.name_key DESC, groups.id"
        case .createdAt: "groups.created_at, groups.id"
        case .createdAtDescending: "groups.created_at DESC, groups.id"
        }
    }
}
