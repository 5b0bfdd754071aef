import PropertyBased
import RosterKitTestSupport
import Testing
@testable import RosterServer

/// A filter printed (`SCIMFilter.description`) and parsed again is the same tree, for any tree
/// the grammar allows: every operator, keyword-like attribute names, URN paths, value paths,
/// any Unicode in strings, JSON numbers as written.
@Suite("SCIM filter properties: printed and parsed again, the same tree")
struct SCIMFilterPropertyTests {
    static let filter = Generator<SCIMFilter, Shrink.None<SCIMFilter>> { random in
        tree(depth: 0, inValuePath: false, using: &random)
    }

    @Test func printedAndParsedAgain() async {
        await propertyCheck(count: 500, input: Self.filter) { filter in
            let printed = filter.description
            let parsed = try SCIMFilterParser.parse(printed)
            #expect(parsed == filter, "printed as \(printed)")
        }
    }

    @Test("known trees print as people write them")
    func examples() throws {
        for text in [#"userName eq "bjensen""#, #"a eq "1" or b eq "2" and not (c pr)"#, #"(a pr or b pr) and c pr"#,
                     #"a pr and (b pr and c pr)"#, #"a pr or (b pr or c pr)"#, #"emails[type eq "work" and value co "@x"]"#,
                     "meta.lastModified gt 1.5e3", "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value eq null"] {
            #expect(try SCIMFilterParser.parse(text).description == text)
        }
    }

    private static func tree(depth: Int, inValuePath: Bool, using random: inout some RandomNumberGenerator) -> SCIMFilter {
        let leaf = depth >= 5 || Int.random(in: 0..<3, using: &random) == 0
        switch leaf ? Int.random(in: 0..<2, using: &random) : Int.random(in: 2..<(inValuePath ? 5 : 6), using: &random) {
        case 0: return .present(path(subAttribute: true, using: &random))
        case 1: return .compare(path(subAttribute: true, using: &random), SCIMFilter.Operator.allCases.randomElement(using: &random)!, literal(using: &random))
        case 2: return .and(tree(depth: depth + 1, inValuePath: inValuePath, using: &random), tree(depth: depth + 1, inValuePath: inValuePath, using: &random))
        case 3: return .or(tree(depth: depth + 1, inValuePath: inValuePath, using: &random), tree(depth: depth + 1, inValuePath: inValuePath, using: &random))
        case 4: return .not(tree(depth: depth + 1, inValuePath: inValuePath, using: &random))
        default: return .valuePath(path(subAttribute: false, using: &random), tree(depth: depth + 1, inValuePath: true, using: &random))
        }
    }

    /// Names as ATTRNAME allows, the filter's keywords among them.
    private static func name(using random: inout some RandomNumberGenerator) -> String {
        if Int.random(in: 0..<4, using: &random) == 0 {
            return ["and", "or", "not", "pr", "eq", "true", "null", "$ref", "AND", "Not"].randomElement(using: &random)!
        }
        let first = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
        let rest = first + "0123456789-_"
        return String(first.randomElement(using: &random)!)
            + String((0..<Int.random(in: 0...8, using: &random)).map { _ in rest.randomElement(using: &random)! })
    }

    private static func path(subAttribute: Bool, using random: inout some RandomNumberGenerator) -> SCIMAttributePath {
        let schema: String? = switch Int.random(in: 0..<5, using: &random) {
        case 0: "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"
        case 1: "URN:" + (0..<Int.random(in: 1...3, using: &random)).map { _ in name(using: &random) }.joined(separator: ":")
        default: nil
        }
        let sub = subAttribute && Bool.random(using: &random) ? name(using: &random) : nil
        return SCIMAttributePath(schema: schema, name: name(using: &random), subAttribute: sub)
    }

    private static func literal(using random: inout some RandomNumberGenerator) -> SCIMLiteral {
        switch Int.random(in: 0..<6, using: &random) {
        case 0...2: return .string(AnyText.string(using: &random))
        case 3:
            let sign = Bool.random(using: &random) ? "-" : ""
            let whole = Bool.random(using: &random) ? "0" : String(Int.random(in: 1...999_999, using: &random))
            let fraction = Bool.random(using: &random) ? "." + String(Int.random(in: 0...9999, using: &random)) : ""
            let exponent = Bool.random(using: &random) ? ["e", "E"].randomElement(using: &random)! + ["", "+", "-"].randomElement(using: &random)! + String(Int.random(in: 0...99, using: &random)) : ""
            return .number(sign + whole + fraction + exponent)
        case 4: return .bool(Bool.random(using: &random))
        default: return .null
        }
    }
}
