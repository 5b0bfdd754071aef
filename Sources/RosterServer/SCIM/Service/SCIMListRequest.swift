import Foundation

/// A list or search request (RFC 7644 sections 3.4.2 and 3.4.3): from a GET's query, or from
/// a `POST …/.search` body, which carries the same parameters as JSON.
struct SCIMListRequest: Sendable {
    /// Without `count`, a page has this many resources.
    static let defaultCount = 100
    /// `filter.maxResults`: a larger `count` returns this many.
    static let maximumCount = 200

    var filter: SCIMFilter?
    var sortBy: SCIMAttributePath?
    var descending = false
    var startIndex = 1
    var count = defaultCount
    var projection = SCIMProjection.all

    init(query: [String: String]) throws(SCIMProblem) {
        if let text = query["filter"], !text.trimmingCharacters(in: .whitespaces).isEmpty {
            filter = try SCIMFilterParser.parse(text)
        }
        try read(sortBy: query["sortBy"], sortOrder: query["sortOrder"])
        if let text = query["startIndex"] {
            guard let value = Int(text) else { throw .invalidValue("startIndex must be an integer.") }
            startIndex = max(1, value)
        }
        if let text = query["count"] {
            guard let value = Int(text) else { throw .invalidValue("count must be an integer.") }
            count = min(max(0, value), Self.maximumCount)
        }
        projection = try SCIMProjection(attributes: query["attributes"], excludedAttributes: query["excludedAttributes"])
    }

    init(searchBody body: SCIMValue) throws(SCIMProblem) {
        guard case .object(let object) = body else { throw .invalidSyntax("A search body must be a JSON object.") }
        if let filterValue = object["filter"] {
            guard case .string(let text) = filterValue else { throw .invalidFilter("filter must be a string.") }
            if !text.trimmingCharacters(in: .whitespaces).isEmpty { filter = try SCIMFilterParser.parse(text) }
        }
        func text(_ name: String) throws(SCIMProblem) -> String? {
            guard let value = object[name] else { return nil }
            guard case .string(let text) = value else { throw .invalidValue("\(name) must be a string.") }
            return text
        }
        func integer(_ name: String) throws(SCIMProblem) -> Int? {
            guard let value = object[name] else { return nil }
            guard case .number(let literal) = value, let number = Int(literal) else { throw .invalidValue("\(name) must be an integer.") }
            return number
        }
        func list(_ name: String) throws(SCIMProblem) -> [String] {
            guard let value = object[name] else { return [] }
            if case .string(let text) = value { return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
            guard let items = value.array, items.allSatisfy({ $0.string != nil }) else { throw .invalidValue("\(name) must be a list of attribute names.") }
            return items.compactMap(\.string)
        }
        try read(sortBy: try text("sortBy"), sortOrder: try text("sortOrder"))
        if let value = try integer("startIndex") { startIndex = max(1, value) }
        if let value = try integer("count") { count = min(max(0, value), Self.maximumCount) }
        projection = try SCIMProjection(attributes: try list("attributes"), excludedAttributes: try list("excludedAttributes"))
    }

    private mutating func read(sortBy: String?, sortOrder: String?) throws(SCIMProblem) {
        if let sortBy, !sortBy.isEmpty {
            guard let path = SCIMAttributePath(sortBy) else { throw .invalidValue("sortBy: “\(sortBy.prefix(100))” is not an attribute path.") }
            self.sortBy = path
        }
        if let sortOrder {
            if sortOrder.caseInsensitiveEquals("descending") {
                descending = true
            } else if !sortOrder.caseInsensitiveEquals("ascending") {
                throw .invalidValue("sortOrder must be ascending or descending.")
            }
        }
    }

    var sort: SCIMListPlan.Sort? {
        sortBy.map { SCIMListPlan.Sort(path: $0, descending: descending) }
    }

    /// What the store is asked for.
    var query: SCIMListQuery {
        SCIMListQuery(filter: filter, sort: sort, startIndex: startIndex, count: count)
    }

    /// The ListResponse of a page.
    static func listResponse(total: Int, startIndex: Int, resources: [SCIMValue]) -> SCIMValue {
        .object(SCIMObject([
            "schemas": .array([.string("urn:ietf:params:scim:api:messages:2.0:ListResponse")]),
            "totalResults": .number(total),
            "itemsPerPage": .number(resources.count),
            "startIndex": .number(startIndex),
            "Resources": .array(resources),
        ]))
    }
}
