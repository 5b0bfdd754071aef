/// Reads JSON text into `SCIMValue`, keeping member order and number literals. Strict RFC 8259:
/// anything else is a `SCIMProblem.invalidSyntax`. Depth is bounded so a hostile body cannot
/// exhaust the stack.
struct SCIMJSONParser {
    static let maximumDepth = 64

    private let bytes: [UInt8]
    private var index = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    static func parse(_ bytes: some Sequence<UInt8>) throws(SCIMProblem) -> SCIMValue {
        var parser = SCIMJSONParser(Array(bytes))
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw parser.failure("unexpected text after the JSON value") }
        return value
    }

    static func parse(_ text: String) throws(SCIMProblem) -> SCIMValue {
        try parse(Array(text.utf8))
    }

    private func failure(_ reason: String) -> SCIMProblem {
        .invalidSyntax("The request body is not valid JSON: \(reason) at byte \(index).")
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private mutating func value(depth: Int) throws(SCIMProblem) -> SCIMValue {
        guard depth < Self.maximumDepth else { throw failure("nested too deeply") }
        guard index < bytes.count else { throw failure("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return .number(try number())
        }
    }

    private mutating func literal(_ word: StaticString) throws(SCIMProblem) {
        let expected = word.withUTF8Buffer { Array($0) }
        guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw failure("unexpected character")
        }
        index += expected.count
    }

    private mutating func object(depth: Int) throws(SCIMProblem) -> SCIMValue {
        index += 1
        var object = SCIMObject()
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(object) }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a member name") }
            let name = try string()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("expected “:”") }
            index += 1
            skipWhitespace()
            let member = try value(depth: depth + 1)
            // A repeated name keeps the last value, as most parsers do; SCIM names ignore case.
            object[name] = nil
            object.members.append(SCIMObject.Member(name: name, value: member))
            skipWhitespace()
            guard index < bytes.count else { throw failure("unexpected end") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(object) }
            throw failure("expected “,” or “}”")
        }
    }

    private mutating func array(depth: Int) throws(SCIMProblem) -> SCIMValue {
        index += 1
        var items: [SCIMValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            skipWhitespace()
            items.append(try value(depth: depth + 1))
            skipWhitespace()
            guard index < bytes.count else { throw failure("unexpected end") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
            throw failure("expected “,” or “]”")
        }
    }

    private mutating func number() throws(SCIMProblem) -> String {
        let start = index
        func digits() -> Int {
            let from = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            return index - from
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, (0x30...0x39).contains(bytes[index]) else { throw failure("unexpected character") }
        if bytes[index] == UInt8(ascii: "0") { index += 1 } else { _ = digits() }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw failure("a digit must follow the decimal point") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw failure("an exponent needs digits") }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func string() throws(SCIMProblem) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flushRun() throws(SCIMProblem) {
            guard runStart < index else { return }
            guard let run = String(validating: bytes[runStart..<index], as: UTF8.self) else { throw failure("invalid UTF-8") }
            scalars.append(contentsOf: run.unicodeScalars)
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                try flushRun()
                index += 1
                return String(scalars)
            }
            if byte < 0x20 { throw failure("a control character must be escaped") }
            if byte != UInt8(ascii: "\\") { index += 1; continue }
            try flushRun()
            index += 1
            guard index < bytes.count else { break }
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                var unit = try hex4()
                if (0xD800...0xDBFF).contains(unit) {
                    // A high surrogate must be followed by an escaped low one.
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw failure("a lone surrogate")
                    }
                    index += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw failure("a lone surrogate") }
                    unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(unit) else { throw failure("a lone surrogate") }
                scalars.append(scalar)
            default:
                throw failure("an unknown escape")
            }
            runStart = index
        }
        throw failure("an unterminated string")
    }

    private mutating func hex4() throws(SCIMProblem) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("a short \\u escape") }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: throw failure("a bad \\u escape")
            }
            value = value << 4 | UInt32(digit)
        }
        index += 4
        return value
    }
}
