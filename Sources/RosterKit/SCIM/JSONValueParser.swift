import Foundation

/// Reads JSON (RFC 8259) into a `JSONValue`: the value `JSONDecoder` gives through
/// `JSONValue.init(from:)`, without Codable's guessing. Codable cannot ask a value's kind, so
/// each value is tried as a string, an object, an array, then the scalars, and every wrong
/// guess throws a `DecodingError`: a SCIM page of 50 users (32 KB) took 4.4–6.5 ms that way
/// and 0.5–1.0 ms this way, 4.9–7.0 against 0.8–1.3 ms as a start's first read
/// (docs/benchmarks.md, "Issue 28, twelfth pass"). Foundation's
/// `JSONSerialization` is faster but rounds some doubles off by one unit in the last place,
/// and a resource must go back to the server as it came. JSONValueParsingTests hold this
/// equal to `JSONDecoder` on edge cases, random documents and broken ones.
struct JSONValueParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    /// Deeper nesting is refused rather than read by recursion without end.
    static let maximumDepth = 512

    struct Failure: Error {
        var offset: Int
        var reason: String
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    static func parse(_ body: Data) throws(Failure) -> JSONValue {
        let result: Result<JSONValue, Failure> = body.withUnsafeBytes { raw in
            var parser = JSONValueParser(bytes: raw.bindMemory(to: UInt8.self))
            return Result { () throws(Failure) in try parser.document() }
        }
        return try result.get()
    }

    private mutating func document() throws(Failure) -> JSONValue {
        // A UTF-8 byte order mark is skipped, as JSONDecoder skips it.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        let value = try value()
        skipWhitespace()
        guard index == bytes.count else { throw failure("more after the value") }
        return value
    }

    private mutating func value() throws(Failure) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw failure("the body ends where a value should be") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure("not a value")
        }
    }

    private mutating func object() throws(Failure) -> JSONValue {
        try enterContainer()
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if take(UInt8(ascii: "}")) { depth -= 1; return .object(members) }
        repeat {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("a member's name must be a string") }
            let name = try string()
            skipWhitespace()
            guard take(UInt8(ascii: ":")) else { throw failure("a colon must follow a member's name") }
            let member = try value()
            // A name given twice keeps its first value, as JSONDecoder keeps it.
            if members[name] == nil { members[name] = member }
            skipWhitespace()
            // JSONDecoder lets an object end with a comma: `{"a":1,}`.
            if take(UInt8(ascii: ",")) {
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { break }
                continue
            }
            break
        } while true
        guard take(UInt8(ascii: "}")) else { throw failure("an object must end with }") }
        depth -= 1
        return .object(members)
    }

    private mutating func array() throws(Failure) -> JSONValue {
        try enterContainer()
        var elements: [JSONValue] = []
        skipWhitespace()
        if take(UInt8(ascii: "]")) { depth -= 1; return .array(elements) }
        repeat {
            elements.append(try value())
            skipWhitespace()
            // JSONDecoder lets an array end with a comma too: `[1,]`.
            if take(UInt8(ascii: ",")) {
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { break }
                continue
            }
            break
        } while true
        guard take(UInt8(ascii: "]")) else { throw failure("an array must end with ]") }
        depth -= 1
        return .array(elements)
    }

    private mutating func enterContainer() throws(Failure) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure("nested more than \(Self.maximumDepth) deep") }
        index += 1
    }

    /// A string from its opening quote: the bytes between the quotes at once when they hold no
    /// escape (nearly every SCIM string), else decoded escape by escape.
    private mutating func string() throws(Failure) -> String {
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = try text(of: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { return try escapedString(from: start) }
            if byte < 0x20 { throw failure("a control character inside a string") }
            index += 1
        }
        throw failure("a string is not closed")
    }

    private mutating func escapedString(from start: Int) throws(Failure) -> String {
        var utf8 = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return try utf8.withUnsafeBufferPointer { buffer throws(Failure) in try text(of: buffer) }
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw failure("a string is not closed") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"): utf8.append(contentsOf: try unicodeEscape())
                default: throw failure("an unknown escape")
                }
            default:
                if byte < 0x20 { throw failure("a control character inside a string") }
                utf8.append(byte)
            }
        }
        throw failure("a string is not closed")
    }

    /// The UTF-8 of `\uXXXX` (its `\u` read), with the low half of a surrogate pair after it.
    private mutating func unicodeEscape() throws(Failure) -> [UInt8] {
        let first = try hexQuad()
        var scalar: UInt32 = first
        if (0xD800...0xDBFF).contains(first) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw failure("a lone surrogate in a \\u escape")
            }
            index += 2
            let second = try hexQuad()
            guard (0xDC00...0xDFFF).contains(second) else { throw failure("a lone surrogate in a \\u escape") }
            scalar = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(first) {
            throw failure("a lone surrogate in a \\u escape")
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw failure("not a character") }
        return Array(String(Character(unicode)).utf8)
    }

    private mutating func hexQuad() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("a \\u escape needs four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("a \\u escape needs four hex digits")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private func text(of utf8: UnsafeBufferPointer<UInt8>) throws(Failure) -> String {
        guard let text = String(validating: utf8, as: UTF8.self) else { throw failure("a string that is not UTF-8") }
        return text
    }

    /// A number as `JSONDecoder` gives one to `init(from:)`: an integer when it is one that
    /// fits in 64 bits (`1.0` and `1e3` too: Int64 is tried first), else a Double.
    private mutating func number() throws(Failure) -> JSONValue {
        let start = index
        _ = take(UInt8(ascii: "-"))
        if take(UInt8(ascii: "0")) {
            // No leading zeros: "01" is not a number.
        } else if digits() == 0 {
            throw failure("a number needs digits")
        }
        var isInteger = true
        if take(UInt8(ascii: ".")) {
            isInteger = false
            guard digits() > 0 else { throw failure("a number needs digits after its point") }
        }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            isInteger = false
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard digits() > 0 else { throw failure("a number needs digits in its exponent") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .integer(integer) }
        guard let double = Double(text), double.isFinite else { throw failure("a number too large for a Double") }
        if !isInteger, double.rounded() == double, let integer = Int64(exactly: double) { return .integer(integer) }
        return .number(double)
    }

    private mutating func digits() -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - start
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count,
              memcmp(bytes.baseAddress! + index, word.utf8Start, count) == 0
        else { throw failure("not a value") }
        index += count
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func failure(_ reason: String) -> Failure {
        Failure(offset: index, reason: reason)
    }
}
