import PostgresNIO

/// A piece of a PostgreSQL statement, written with interpolated values as a `PostgresQuery` is
/// (`"role = \(role)"`) and put together with other pieces (`"WHERE \(condition)"`), for the
/// statements whose clauses depend on the request (`PostgresListQuery`). `query` hands the
/// whole to the driver's own interpolation, which numbers the binds: no piece counts them.
struct PostgresSQL: ExpressibleByStringInterpolation, Sendable {
    fileprivate enum Piece: Sendable {
        case sql(String)
        case value(any PostgresDynamicTypeEncodable & Sendable)
    }

    fileprivate var pieces: [Piece]

    init(stringLiteral sql: String) {
        pieces = [.sql(sql)]
    }

    init(stringInterpolation: StringInterpolation) {
        pieces = stringInterpolation.pieces
    }

    struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var pieces: [Piece] = []

        init(literalCapacity: Int, interpolationCount: Int) {
            pieces.reserveCapacity(interpolationCount * 2 + 1)
        }

        mutating func appendLiteral(_ sql: String) { pieces.append(.sql(sql)) }
        mutating func appendInterpolation(_ value: some PostgresDynamicTypeEncodable & Sendable) { pieces.append(.value(value)) }
        mutating func appendInterpolation(_ piece: PostgresSQL) { pieces += piece.pieces }
        /// SQL text made by the program (a column, an order), never a value from a request.
        mutating func appendInterpolation(unescaped sql: String) { pieces.append(.sql(sql)) }
    }

    /// `parts` with `separator` between them.
    static func joined(_ parts: [PostgresSQL], separator: String) -> PostgresSQL {
        var joined = PostgresSQL(stringLiteral: "")
        for (index, part) in parts.enumerated() {
            if index > 0 { joined.pieces.append(.sql(separator)) }
            joined.pieces += part.pieces
        }
        return joined
    }

    var query: PostgresQuery {
        var interpolation = PostgresQuery.StringInterpolation(literalCapacity: 0, interpolationCount: pieces.count)
        for piece in pieces {
            switch piece {
            case .sql(let sql): interpolation.appendInterpolation(unescaped: sql)
            case .value(let value): interpolation.appendInterpolation(value)
            }
        }
        return PostgresQuery(stringInterpolation: interpolation)
    }
}
