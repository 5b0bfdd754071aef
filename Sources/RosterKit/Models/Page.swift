/// One page of a list, with the total across all pages.
public struct Page<Item: Sendable>: Sendable {
    public var items: [Item]
    /// 1-based.
    public var page: Int
    public var perPage: Int
    public var total: Int
    /// True when the server did not say how many there are (or said too few) and `total` is
    /// only what is known: at least this many ("41 / 100+"). Not on the Roster wire.
    public var totalIsLowerBound = false

    public init(items: [Item], page: Int, perPage: Int, total: Int) {
        self.items = items
        self.page = page
        self.perPage = perPage
        self.total = total
    }

    /// How many pages the whole list has (at least 1, so an empty list still has a page).
    public var pageCount: Int {
        guard perPage > 0 else { return 1 }
        return max(1, (total + perPage - 1) / perPage)
    }

    enum CodingKeys: String, CodingKey {
        case items, page, total
        case perPage = "per_page"
    }
}

extension Page: Equatable where Item: Equatable {}
extension Page: Hashable where Item: Hashable {}
extension Page: Encodable where Item: Encodable {}
extension Page: Decodable where Item: Decodable {}
