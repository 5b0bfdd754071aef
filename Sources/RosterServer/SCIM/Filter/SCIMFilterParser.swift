/// Parses filter text into a `SCIMFilter`:
///
///     filter    = orExpr
///     orExpr    = andExpr *("or" andExpr)
///     andExpr   = notExpr *("and" notExpr)
///     notExpr   = "not" "(" filter ")" / "(" filter ")" / attrExp / valuePath
///     attrExp   = attrPath "pr" / attrPath compareOp compValue
///     valuePath = attrPath "[" filter "]"
///
/// so `not` binds tightest, then `and`, then `or`. Keywords and operators ignore case.
/// Anything else is a `SCIMProblem.invalidFilter` saying where.
struct SCIMFilterParser {
    /// Filters come from a query string or a body; this bounds the work one can ask for.
    static let maximumLength = 4096
    static let maximumDepth = 32

    private var tokens: [Token]
    private var position = 0

    enum Token: Equatable {
        case word(String)
        case string(String)
        case open, close, openBracket, closeBracket
    }

    static func parse(_ text: String) throws(SCIMProblem) -> SCIMFilter {
        guard text.utf8.count <= maximumLength else { throw .invalidFilter("The filter is over \(maximumLength) bytes.") }
        var parser = SCIMFilterParser(tokens: try tokenize(text))
        guard !parser.tokens.isEmpty else { throw .invalidFilter("The filter is empty.") }
        let filter = try parser.orExpression(depth: 0, inValuePath: false)
        guard parser.position == parser.tokens.count else {
            throw .invalidFilter("Unexpected \(parser.describe(parser.tokens[parser.position])) in the filter.")
        }
        return filter
    }

    private init(tokens: [Token]) {
        self.tokens = tokens
    }

    private var next: Token? { position < tokens.count ? tokens[position] : nil }

    private func describe(_ token: Token) -> String {
        switch token {
        case .word(let word): "“\(word.prefix(60))”"
        case .string: "a string"
        case .open: "“(”"
        case .close: "“)”"
        case .openBracket: "“[”"
        case .closeBracket: "“]”"
        }
    }

    private func isKeyword(_ token: Token?, _ keyword: String) -> Bool {
        if case .word(let word) = token { return word.caseInsensitiveEquals(keyword) }
        return false
    }

    private mutating func orExpression(depth: Int, inValuePath: Bool) throws(SCIMProblem) -> SCIMFilter {
        guard depth < Self.maximumDepth else { throw .invalidFilter("The filter is nested too deeply.") }
        var left = try andExpression(depth: depth, inValuePath: inValuePath)
        while isKeyword(next, "or") {
            position += 1
            left = .or(left, try andExpression(depth: depth, inValuePath: inValuePath))
        }
        return left
    }

    private mutating func andExpression(depth: Int, inValuePath: Bool) throws(SCIMProblem) -> SCIMFilter {
        var left = try notExpression(depth: depth, inValuePath: inValuePath)
        while isKeyword(next, "and") {
            position += 1
            left = .and(left, try notExpression(depth: depth, inValuePath: inValuePath))
        }
        return left
    }

    private mutating func notExpression(depth: Int, inValuePath: Bool) throws(SCIMProblem) -> SCIMFilter {
        guard let token = next else { throw .invalidFilter("The filter ends where an expression was expected.") }
        if isKeyword(token, "not"), position + 1 < tokens.count, tokens[position + 1] == .open {
            position += 1
            return .not(try parenthesized(depth: depth, inValuePath: inValuePath))
        }
        if token == .open { return try parenthesized(depth: depth, inValuePath: inValuePath) }
        guard case .word(let word) = token, let path = SCIMAttributePath(word) else {
            throw .invalidFilter("Expected an attribute name, found \(describe(token)).")
        }
        position += 1
        if next == .openBracket {
            guard !inValuePath else { throw .invalidFilter("A value filter cannot contain another one.") }
            guard path.subAttribute == nil else {
                throw .invalidFilter("“\(word.prefix(60))[…]”: a value filter follows an attribute, not a sub-attribute.")
            }
            position += 1
            let inner = try orExpression(depth: depth + 1, inValuePath: true)
            guard next == .closeBracket else { throw .invalidFilter("Expected “]” to close the value filter on \(word.prefix(60)).") }
            position += 1
            return .valuePath(path, inner)
        }
        guard case .word(let operatorWord) = next else {
            throw .invalidFilter("Expected an operator after \(word.prefix(60)).")
        }
        position += 1
        if operatorWord.caseInsensitiveEquals("pr") { return .present(path) }
        guard let op = SCIMFilter.Operator.allCases.first(where: { $0.rawValue.caseInsensitiveEquals(operatorWord) }) else {
            throw .invalidFilter("“\(operatorWord.prefix(20))” is not an operator; use eq, ne, co, sw, ew, gt, ge, lt, le or pr.")
        }
        return .compare(path, op, try literal(after: word))
    }

    private mutating func parenthesized(depth: Int, inValuePath: Bool) throws(SCIMProblem) -> SCIMFilter {
        position += 1 // (
        let inner = try orExpression(depth: depth + 1, inValuePath: inValuePath)
        guard next == .close else { throw .invalidFilter("Expected “)”.") }
        position += 1
        return inner
    }

    private mutating func literal(after attribute: String) throws(SCIMProblem) -> SCIMLiteral {
        guard let token = next else { throw .invalidFilter("Expected a value after \(attribute.prefix(60)) and its operator.") }
        position += 1
        switch token {
        case .string(let text): return .string(text)
        case .word(let word):
            switch word.lowercased() {
            case "true": return .bool(true)
            case "false": return .bool(false)
            case "null": return .null
            default:
                guard case .number(let literal)? = try? SCIMJSONParser.parse(word) else {
                    throw .invalidFilter("“\(word.prefix(60))” is not a value: quote strings, as in \"text\".")
                }
                return .number(literal)
            }
        default:
            throw .invalidFilter("Expected a value after \(attribute.prefix(60)), found \(describe(token)).")
        }
    }

    /// Words run to white space or a bracket; strings are JSON strings (escapes included).
    static func tokenize(_ text: String) throws(SCIMProblem) -> [Token] {
        let bytes = Array(text.utf8)
        var tokens: [Token] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            case UInt8(ascii: "("): tokens.append(.open); index += 1
            case UInt8(ascii: ")"): tokens.append(.close); index += 1
            case UInt8(ascii: "["): tokens.append(.openBracket); index += 1
            case UInt8(ascii: "]"): tokens.append(.closeBracket); index += 1
            case UInt8(ascii: "\""):
                var end = index + 1
                while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                    end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard end < bytes.count else { throw .invalidFilter("A string in the filter has no closing quote.") }
                guard case .string(let value) = try? SCIMJSONParser.parse(Array(bytes[index...end])) else {
                    throw .invalidFilter("A string in the filter is not a valid JSON string.")
                }
                tokens.append(.string(value))
                index = end + 1
            default:
                var end = index
                while end < bytes.count, ![0x20, 0x09, 0x0A, 0x0D, 0x28, 0x29, 0x5B, 0x5D, 0x22].contains(bytes[end]) { end += 1 }
                tokens.append(.word(String(decoding: bytes[index..<end], as: UTF8.self)))
                index = end
            }
        }
        return tokens
    }
}
