/// A SCIM document as PostgreSQL stores it: `scim`, the text answered as it was written, and
/// `scim_json`, its jsonb copy, which filters and sorts read. jsonb cannot hold U+0000 (a
/// document may, escaped as `\u0000` in its text), so the copy has U+FFFD in its place, and
/// filter values get the same (`PostgresSCIMDialect.query`): a filter still finds what was written.
struct PostgresSCIMDocument {
    let text: String
    let jsonText: String

    init(_ document: SCIMObject) {
        text = SCIMDocumentColumn.text(document)
        // Only a document whose text has the escape can hold U+0000.
        jsonText = text.contains("\\u0000") ? SCIMDocumentColumn.text(Self.replacingNUL(in: document)) : text
    }

    static func replacingNUL(in text: String) -> String {
        text.contains("\u{0}") ? text.replacingOccurrences(of: "\u{0}", with: "\u{FFFD}") : text
    }

    private static func replacingNUL(in document: SCIMObject) -> SCIMObject {
        SCIMObject(document.members.map { SCIMObject.Member(name: replacingNUL(in: $0.name), value: replacingNUL(in: $0.value)) })
    }

    private static func replacingNUL(in value: SCIMValue) -> SCIMValue {
        switch value {
        case .string(let text): .string(replacingNUL(in: text))
        case .array(let items): .array(items.map(replacingNUL(in:)))
        case .object(let object): .object(replacingNUL(in: object))
        case .null, .bool, .number: value
        }
    }
}
