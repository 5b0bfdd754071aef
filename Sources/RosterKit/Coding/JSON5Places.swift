/// Line and column for the settings file's errors. Foundation's JSONDecoder (allowsJSON5) is
/// the reader that decides what the file says and whether it is valid; but outside Apple's
/// platforms it reports a syntax error without its place ("The given data was not valid
/// JSON.", no underlying error) and a wrong type by key path only. This walks the text the
/// decoder refused, or decoded, to say where: the first place that cannot be JSON5, and where
/// each key and its value start. It never decides a value. In RosterKit, not beside the
/// settings in `roster`, so `make fuzz` can reach it (Sources/FuzzTargets).
public struct JSON5Places: Sendable {
    public struct Place: Sendable, Equatable, CustomStringConvertible {
        public var line: Int
        public var column: Int
        public var description: String { "\(line):\(column)" }
    }

    /// The first place that cannot be JSON5 and what was expected there.
    public private(set) var problem: (place: Place, expected: String)?
    /// Where each key of an object starts, and its value, by key path ("embedded.seedUsers").
    public private(set) var keys: [String: Place] = [:]
    public private(set) var values: [String: Place] = [:]

    /// Foundation's reader refuses deeper nesting; past it the walk stops with a problem rather
    /// than recurse on (a file of 20,000 `[` overflowed the stack).
    public static let maximumDepth = 512

    private let bytes: [UInt8]
    private var depth = 0
    private var index = 0
    private var line = 1
    private var column = 1

    public init(_ text: String) {
        bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        walkDocument()
    }

    /// The place of the first byte that is not UTF-8, or nil for UTF-8 text. Checked before
    /// Foundation's JSON5 reader sees a file: Swift 6.3.1's stops the program (a `fatalError` in
    /// `BufferView._decodeScalar`) on a byte from F8 to FF where an unquoted key may start with
    /// seven more bytes after it (docs/testing.md, "Fuzzing results").
    public static func invalidUTF8(in bytes: some Sequence<UInt8>) -> Place? {
        var codec = UTF8()
        var iterator = bytes.makeIterator()
        var place = Place(line: 1, column: 1)
        while true {
            switch codec.decode(&iterator) {
            case .scalarValue("\n"): place = Place(line: place.line + 1, column: 1)
            case .scalarValue: place.column += 1
            case .emptyInput: return nil
            case .error: return place
            }
        }
    }

    private var place: Place { Place(line: line, column: column) }
    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func advance() {
        guard let byte = current else { return }
        index += 1
        if byte == UInt8(ascii: "\n") {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            column += 1 // one column a character, not a byte
        }
    }

    private mutating func fail(_ expected: String, at spot: Place? = nil) {
        if problem == nil { problem = (spot ?? place, expected) }
    }

    private mutating func walkDocument() {
        skipBlanks()
        guard problem == nil else { return }
        walkValue(path: [])
        skipBlanks()
        if problem == nil, current != nil { fail("the end of the file after the closing } (found “\(found)”)") }
    }

    private var found: String {
        guard current != nil else { return "the end of the file" }
        var end = index + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return String(decoding: bytes[index..<end], as: UTF8.self)
    }

    /// Spaces, line breaks and comments.
    private mutating func skipBlanks() {
        while let byte = current, problem == nil {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0B, 0x0C:
                advance()
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "/"):
                while let byte = current, byte != UInt8(ascii: "\n") { advance() }
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "*"):
                let opened = place
                advance(); advance()
                while current != nil, !(current == UInt8(ascii: "*") && peek(1) == UInt8(ascii: "/")) { advance() }
                guard current != nil else { return fail("*/ to close the comment opened here", at: opened) }
                advance(); advance()
            default:
                return
            }
        }
    }

    private func peek(_ offset: Int) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    private mutating func walkValue(path: [String]) {
        values[path.joined(separator: ".")] = place
        switch current {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth < Self.maximumDepth else {
                return fail("at most \(Self.maximumDepth) lists and objects inside each other")
            }
            depth += 1
            if current == UInt8(ascii: "{") { walkObject(path: path) } else { walkArray(path: path) }
            depth -= 1
        case UInt8(ascii: "\""), UInt8(ascii: "'"): walkString()
        case let byte? where Self.isNumberStart(byte): walkNumber()
        case let byte? where Self.isIdentifier(byte):
            let word = walkIdentifier()
            if !["true", "false", "null", "Infinity", "NaN"].contains(word) {
                fail("a value (a string in quotes, a number, true, false, null, { or [), not “\(word)”")
            }
        default: fail("a value, not \(found)")
        }
    }

    private mutating func walkObject(path: [String]) {
        advance()
        skipBlanks()
        while problem == nil {
            if current == UInt8(ascii: "}") { return advance() }
            let keyPlace = place
            let key: String
            switch current {
            case UInt8(ascii: "\""), UInt8(ascii: "'"): key = walkString()
            case let byte? where Self.isIdentifier(byte): key = walkIdentifier()
            default: return fail("a key in quotes or } to close the object, not \(found)")
            }
            keys[(path + [key]).joined(separator: ".")] = keyPlace
            skipBlanks()
            guard problem == nil else { return }
            guard current == UInt8(ascii: ":") else { return fail(": after the key “\(key)”, not \(found)") }
            advance()
            skipBlanks()
            guard problem == nil else { return }
            walkValue(path: path + [key])
            skipBlanks()
            guard problem == nil else { return }
            if current == UInt8(ascii: ",") {
                advance()
                skipBlanks()
            } else if current != UInt8(ascii: "}") {
                return fail(", or } after the value of “\(key)”, not \(found)")
            }
        }
    }

    private mutating func walkArray(path: [String]) {
        advance()
        skipBlanks()
        var position = 0
        while problem == nil {
            if current == UInt8(ascii: "]") { return advance() }
            walkValue(path: path + ["\(position)"])
            position += 1
            skipBlanks()
            guard problem == nil else { return }
            if current == UInt8(ascii: ",") {
                advance()
                skipBlanks()
            } else if current != UInt8(ascii: "]") {
                return fail(", or ] in the list, not \(found)")
            }
        }
    }

    @discardableResult
    private mutating func walkString() -> String {
        let opened = place
        let quote = current
        advance()
        var text: [UInt8] = []
        while let byte = current, byte != quote {
            if byte == UInt8(ascii: "\n") {
                fail("the closing quote of the string opened here", at: opened)
                return ""
            }
            if byte == UInt8(ascii: "\\") { advance() }
            if let escaped = current { text.append(escaped) }
            advance()
        }
        guard current != nil else {
            fail("the closing quote of the string opened here", at: opened)
            return ""
        }
        advance()
        return String(decoding: text, as: UTF8.self)
    }

    private mutating func walkNumber() {
        if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { advance() }
        if let byte = current, Self.isIdentifier(byte), !Self.isDigit(byte) {
            let word = walkIdentifier()
            if word != "Infinity" && word != "NaN" { fail("a number, not “\(word)”") }
            return
        }
        while let byte = current, Self.isDigit(byte) || Self.isIdentifier(byte) || byte == UInt8(ascii: ".") {
            let exponent = byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
            advance()
            if exponent, current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { advance() }
        }
    }

    private mutating func walkIdentifier() -> String {
        let start = index
        while let byte = current, Self.isIdentifier(byte) || Self.isDigit(byte) { advance() }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
    private static func isNumberStart(_ byte: UInt8) -> Bool {
        isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
    }
    private static func isIdentifier(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte >= 0x80
    }
}
