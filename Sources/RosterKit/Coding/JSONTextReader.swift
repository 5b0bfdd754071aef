import Foundation

/// What `JSONTextReader` makes of the text it reads, and the rules it reads by. Two trees are
/// read with it: the client's `JSONValue` (as `JSONDecoder` reads it, `JSONValueBuilder`) and
/// roster-server's `SCIMValue` (member order and number literals kept, strict RFC 8259,
/// `SCIMJSONParser`).
public protocol JSONTreeBuilder {
    associatedtype Value
    associatedtype Members
    /// Objects and arrays inside each other beyond this are refused, not read by recursion
    /// without end.
    var maximumDepth: Int { get }
    /// Whether an object or an array may end with a comma (`[1,]`), as `JSONDecoder` allows.
    var allowsTrailingCommas: Bool { get }
    /// Whether a UTF-8 byte order mark before the value is skipped, as `JSONDecoder` skips it.
    var skipsByteOrderMark: Bool { get }
    func null() -> Value
    func bool(_ value: Bool) -> Value
    func string(_ text: String) -> Value
    /// A number from its literal (valid JSON, already checked); nil refuses it.
    func number(_ literal: String, isInteger: Bool) -> Value?
    func array(_ elements: [Value]) -> Value
    func members() -> Members
    /// Adds a member read in text order; a repeated name is the builder's to settle.
    func add(_ name: String, _ value: Value, to members: inout Members)
    func object(_ members: Members) -> Value
}

/// Why a text is not JSON, and where.
public struct JSONTextFailure: Error, Sendable {
    public var offset: Int
    public var reason: String

    @inlinable
    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }
}

/// Reads JSON text (RFC 8259) into the tree a `JSONTreeBuilder` makes: one reader for every
/// JSON body Roster reads by hand. Inlinable, so each builder gets a reader specialised for it.
public struct JSONTextReader<Builder: JSONTreeBuilder> {
    @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline let builder: Builder
    @usableFromInline var index = 0
    @usableFromInline var depth = 0

    @inlinable
    init(bytes: UnsafeBufferPointer<UInt8>, builder: Builder) {
        self.bytes = bytes
        self.builder = builder
    }

    /// Reads `body` (a `Data`, a `[UInt8]`, …) whole.
    @inlinable
    public static func read(_ body: some ContiguousBytes, with builder: Builder) throws(JSONTextFailure) -> Builder.Value {
        let result: Result<Builder.Value, JSONTextFailure> = body.withUnsafeBytes { raw in
            var reader = JSONTextReader(bytes: raw.bindMemory(to: UInt8.self), builder: builder)
            return Result { () throws(JSONTextFailure) in try reader.document() }
        }
        return try result.get()
    }

    @inlinable
    mutating func document() throws(JSONTextFailure) -> Builder.Value {
        if builder.skipsByteOrderMark, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        let value = try value()
        skipWhitespace()
        guard index == bytes.count else { throw failure("more after the value") }
        return value
    }

    @inlinable
    mutating func value() throws(JSONTextFailure) -> Builder.Value {
        skipWhitespace()
        guard index < bytes.count else { throw failure("the text ends where a value should be") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return builder.string(try string())
        case UInt8(ascii: "t"): try literal("true"); return builder.bool(true)
        case UInt8(ascii: "f"): try literal("false"); return builder.bool(false)
        case UInt8(ascii: "n"): try literal("null"); return builder.null()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure("not a value")
        }
    }

    @inlinable
    mutating func object() throws(JSONTextFailure) -> Builder.Value {
        try enterContainer()
        var members = builder.members()
        skipWhitespace()
        if !take(UInt8(ascii: "}")) {
            repeat {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("a member's name must be a string") }
                let name = try string()
                skipWhitespace()
                guard take(UInt8(ascii: ":")) else { throw failure("a colon must follow a member's name") }
                builder.add(name, try value(), to: &members)
            } while another(closingWith: UInt8(ascii: "}"))
            guard take(UInt8(ascii: "}")) else { throw failure("an object must end with }") }
        }
        depth -= 1
        return builder.object(members)
    }

    @inlinable
    mutating func array() throws(JSONTextFailure) -> Builder.Value {
        try enterContainer()
        var elements: [Builder.Value] = []
        skipWhitespace()
        if !take(UInt8(ascii: "]")) {
            repeat {
                elements.append(try value())
            } while another(closingWith: UInt8(ascii: "]"))
            guard take(UInt8(ascii: "]")) else { throw failure("an array must end with ]") }
        }
        depth -= 1
        return builder.array(elements)
    }

    /// After a member or an element: whether another follows (a comma read), or the container
    /// ends (at `closing`, or at a comma before it when the builder allows that).
    @inlinable
    mutating func another(closingWith closing: UInt8) -> Bool {
        skipWhitespace()
        guard take(UInt8(ascii: ",")) else { return false }
        guard builder.allowsTrailingCommas else { return true }
        skipWhitespace()
        return !(index < bytes.count && bytes[index] == closing)
    }

    @inlinable
    mutating func enterContainer() throws(JSONTextFailure) {
        depth += 1
        guard depth <= builder.maximumDepth else { throw failure("nested more than \(builder.maximumDepth) deep") }
        index += 1
    }

    /// A string from its opening quote: the bytes between the quotes at once when they hold no
    /// escape (nearly every string a directory sends), else decoded escape by escape.
    @inlinable
    mutating func string() throws(JSONTextFailure) -> String {
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

    @inlinable
    mutating func escapedString(from start: Int) throws(JSONTextFailure) -> String {
        var utf8 = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return try utf8.withUnsafeBufferPointer { buffer throws(JSONTextFailure) in try text(of: buffer) }
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
                case UInt8(ascii: "u"): UTF8.encode(try unicodeEscape()) { utf8.append($0) }
                default: throw failure("an unknown escape")
                }
            default:
                if byte < 0x20 { throw failure("a control character inside a string") }
                utf8.append(byte)
            }
        }
        throw failure("a string is not closed")
    }

    /// The character of `\uXXXX` (its `\u` read), with the low half of a surrogate pair after it.
    @inlinable
    mutating func unicodeEscape() throws(JSONTextFailure) -> Unicode.Scalar {
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
        return unicode
    }

    @inlinable
    mutating func hexQuad() throws(JSONTextFailure) -> UInt32 {
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

    @inlinable
    func text(of utf8: UnsafeBufferPointer<UInt8>) throws(JSONTextFailure) -> String {
        guard let text = String(validating: utf8, as: UTF8.self) else { throw failure("a string that is not UTF-8") }
        return text
    }

    /// A number, checked against RFC 8259's grammar, handed to the builder as its literal.
    @inlinable
    mutating func number() throws(JSONTextFailure) -> Builder.Value {
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
        let literal = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = builder.number(literal, isInteger: isInteger) else { throw failure("a number too large for a Double") }
        return value
    }

    @inlinable
    mutating func digits() -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - start
    }

    @inlinable
    mutating func literal(_ word: StaticString) throws(JSONTextFailure) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count, memcmp(bytes.baseAddress! + index, word.utf8Start, count) == 0 else {
            throw failure("not a value")
        }
        index += count
    }

    @inlinable
    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    @inlinable
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    @inlinable
    func failure(_ reason: String) -> JSONTextFailure {
        JSONTextFailure(offset: index, reason: reason)
    }
}
