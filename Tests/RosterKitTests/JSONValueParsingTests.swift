import Foundation
@testable import RosterKit
import Testing

/// `JSONValue(parsing:)` (JSONTextReader with JSONValueBuilder) must read every body as `JSONDecoder` reads it
/// through `JSONValue.init(from:)`: the SCIM client switched to it for speed, and a resource is
/// written back as it was read.
@Suite("JSONValue read by JSONTextReader equals JSONValue read by JSONDecoder")
struct JSONValueParsingTests {
    private func both(_ text: String) throws -> (parsed: JSONValue, decoded: JSONValue) {
        let body = Data(text.utf8)
        return (try JSONValue(parsing: body), try JSONDecoder().decode(JSONValue.self, from: body))
    }

    @Test("numbers, booleans, null, escapes and nesting read the same")
    func edgeCases() throws {
        let text = """
            {"one":1,"onePointZero":1.0,"thousand":1e3,"half":1.5,"small":1E-2,"zero":0,"minusZero":-0,"negativeZeroPoint":-0.0,
             "big":12345678901234567890,"huge":1e300,"min":-9223372036854775808,"max":9223372036854775807,"tenth":0.1,
             "yes":true,"no":false,"nothing":null,"text":"x\\u00e9\\ud83d\\ude00\\"\\\\/\\n","arabic":"محمد",
             "empty":[],"emptyObject":{},"mixed":[1,"a",true,null,{"x":[2.5,-3,false]}],"bytes":[0,1,-1,127,128,255,256]}
            """
        let (parsed, decoded) = try both(text)
        #expect(parsed == decoded)
        #expect(parsed[attribute: "yes"] == .bool(true))
        #expect(parsed[attribute: "one"] == .integer(1))
        #expect(parsed[attribute: "bytes"] == .array([0, 1, -1, 127, 128, 255, 256].map { .integer($0) }))
        #expect(parsed[attribute: "half"] == .number(1.5))
        #expect(parsed[attribute: "big"] == .decimal(Decimal(string: "12345678901234567890")!))
    }

    @Test("a number a Double would round is kept and written back with every digit",
          arguments: ["18446744073709551615", "-12345678901234567890123", "0.12345678901234567890", "3.141592653589793238",
                      "9007199254740993", "9007199254740993.5", "9007199254740993.0", "123.0000000000000001", "1e19", "1234567890.0987654321", "1.5", "0.1", "1e-7", "-2.25", "3.141592653589793",
                      "1e3", "1.0", "-0.0", "123456789012345678901234567890123456"])
    func numbersKeepTheirDigits(_ literal: String) throws {
        let (parsed, decoded) = try both("{\"n\":\(literal)}")
        #expect(parsed == decoded)
        let written = String(decoding: try JSONEncoder().encode(parsed), as: UTF8.self)
        let number = written.dropFirst("{\"n\":".count).dropLast()
        #expect(Decimal(string: String(number)) == Decimal(string: literal), "\(literal) was written back as \(number)")
    }

    @Test("a top-level fragment reads the same", arguments: ["true", "null", "42", "\"text\"", "[1,2]", "2.5"])
    func fragments(_ text: String) throws {
        let (parsed, decoded) = try both(text)
        #expect(parsed == decoded)
    }

    @Test("random documents, written by JSONEncoder, read the same both ways")
    func randomDocuments() throws {
        var random = SeededGenerator(seed: 28)
        for _ in 0..<300 {
            let value = Self.randomValue(depth: 0, using: &random)
            let body = try JSONEncoder().encode(value)
            let parsed = try JSONValue(parsing: body)
            #expect(parsed == (try JSONDecoder().decode(JSONValue.self, from: body)), "\(String(decoding: body, as: UTF8.self))")
        }
    }

    @Test("broken and unusual documents: each accepted or refused as JSONDecoder does, and read the same")
    func brokenDocuments() throws {
        var bodies = ["1e400", "-1e400", "\"\\ud800\"", "\"\\udc00x\"", "\"\\ud83d\\u0041\"", "\"a\u{1}b\"", "01", "-", "1.", ".5", "+1",
                      "[1 2]", "{\"a\" 1}", "{\"a\":1,}", "{\"a\":1 , }", "{,}", "[1,]", "[,]", "{\"a\":1,\"a\":2}", "\u{FEFF}[1]", " [ 1 , 2 ] ", "tru", "nulls", "\"\\x\"",
                      String(repeating: "[", count: 600) + String(repeating: "]", count: 600)].map { Data($0.utf8) }
        bodies.append(Data([0x22, 0xFF, 0xFE, 0x22]))       // a string that is not UTF-8
        bodies.append(Data([0x22, 0xC3, 0xA9, 0x22]))       // "é"
        var random = SeededGenerator(seed: 2_028)
        for _ in 0..<400 {
            var body = try JSONEncoder().encode(Self.randomValue(depth: 0, using: &random))
            guard !body.isEmpty else { continue }
            let at = Int.random(in: 0..<body.count, using: &random)
            if Bool.random(using: &random) {
                body.remove(at: at)
            } else {
                body.insert(Array("{}[]\",:0e-.\"\\ \u{1}".utf8).randomElement(using: &random)!, at: at)
            }
            bodies.append(body)
        }
        for body in bodies {
            let parsed = try? JSONValue(parsing: body)
            let decoded = try? JSONDecoder().decode(JSONValue.self, from: body)
            #expect(parsed == decoded, "\(String(decoding: body.prefix(200), as: UTF8.self))")
        }
    }

    @Test("a body that is not JSON is a decoding failure that says so")
    func notJSON() {
        for text in ["", "{", "{\"a\":}", "<html>", "[1 2]"] {
            #expect(throws: DecodingError.self) { try JSONValue(parsing: Data(text.utf8)) }
            do {
                _ = try JSONValue(parsing: Data(text.utf8))
            } catch {
                #expect(DecodingFailure(error, body: Data(text.utf8)).reason == "is not valid JSON")
            }
        }
    }

    private static func randomValue(depth: Int, using random: inout SeededGenerator) -> JSONValue {
        let kinds = depth > 3 ? 5 : 7
        switch Int.random(in: 0..<kinds, using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .integer([0, 1, -1, Int64.max, Int64.min, Int64.random(in: -1_000_000...1_000_000, using: &random)].randomElement(using: &random)!)
        case 3:
            if Bool.random(using: &random) { return .decimal(Decimal(string: "18446744073709551\(Int.random(in: 100...999, using: &random))")!) }
            return .number([0.5, -2.25, 1e-7, 3.141592653589793, Double.random(in: -1e9...1e9, using: &random)].randomElement(using: &random)!)
        case 4:
            let pieces = ["a", "é", "محمد", "😀", "\"", "\\", "\n", "\u{1b}[31m", " ", "Søren", "\u{0}"]
            return .string((0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined())
        case 5:
            return .array((0..<Int.random(in: 0...4, using: &random)).map { _ in randomValue(depth: depth + 1, using: &random) })
        default:
            var object: [String: JSONValue] = [:]
            for index in 0..<Int.random(in: 0...5, using: &random) {
                object["key\(index)\(["", "é", "$ref"].randomElement(using: &random)!)"] = randomValue(depth: depth + 1, using: &random)
            }
            return .object(object)
        }
    }
}
