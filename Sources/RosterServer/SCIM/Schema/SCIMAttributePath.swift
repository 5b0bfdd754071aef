/// `[schema URN ":"] name ["." subAttribute]`: how filters, sortBy, attributes and PATCH paths
/// name an attribute (RFC 7644 section 3.10).
struct SCIMAttributePath: Sendable, Equatable {
    /// The URN prefix as written, or nil.
    var schema: String?
    var name: String
    var subAttribute: String?

    /// Nil when `text` is not an attribute path.
    init?(_ text: String) {
        var rest = Substring(text)
        if text.lowercased().hasPrefix("urn:") {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            schema = String(text[..<colon])
            rest = text[text.index(after: colon)...]
        }
        let parts = rest.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let first = parts.first, Self.isName(first) else { return nil }
        name = String(first)
        if parts.count == 2 {
            guard Self.isName(parts[1]) else { return nil }
            subAttribute = String(parts[1])
        }
    }

    init(schema: String? = nil, name: String, subAttribute: String? = nil) {
        self.schema = schema
        self.name = name
        self.subAttribute = subAttribute
    }

    /// ATTRNAME = ALPHA *(nameChar), nameChar = "-" / "_" / DIGIT / ALPHA; `$ref` too.
    static func isName(_ text: Substring) -> Bool {
        if text == "$ref" { return true }
        guard let first = text.unicodeScalars.first, first.isASCIILetter else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
    }

    var description: String {
        (schema.map { $0 + ":" } ?? "") + name + (subAttribute.map { "." + $0 } ?? "")
    }
}

/// An attribute path matched against a resource type's schemas.
struct ResolvedAttribute: Sendable {
    /// The extension schema the attribute belongs to; nil for the core schema and common attributes.
    var extensionURN: String?
    var attribute: SCIMAttribute
    var subAttribute: SCIMAttribute?
}

extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
