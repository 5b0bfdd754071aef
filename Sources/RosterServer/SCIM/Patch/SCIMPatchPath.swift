import Foundation

/// A PATCH operation's `path` (RFC 7644 section 3.5.2):
///
///     PATH = attrPath / valuePath [subAttr]
///
/// e.g. `displayName`, `name.familyName`, `emails[type eq "work"].value`,
/// `members[value eq "2819c223"]`, `urn:…:enterprise:2.0:User:manager.value`, or a bare
/// extension URN naming the whole extension. (A bare URN the server does not know reads as
/// container and attribute; `SCIMPatch` treats it as a container when the resource has one so named.)
struct SCIMPatchPath: Sendable, Equatable {
    /// The extension (or other URN) container the attribute is in; nil for the resource itself.
    var container: String?
    /// The attribute; nil when the path is the container itself.
    var attribute: String?
    var filter: SCIMFilter?
    var subAttribute: String?

    static func parse(_ text: String, type: SCIMResourceType) throws(SCIMProblem) -> SCIMPatchPath {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let extensionSchema = type.extensionSchema(trimmed) {
            return SCIMPatchPath(container: extensionSchema.id, attribute: nil)
        }
        var attributeText = Substring(trimmed)
        var filter: SCIMFilter?
        var subAttribute: String?
        if let open = trimmed.firstIndex(of: "[") {
            guard let close = trimmed.lastIndex(of: "]"), close > open else { throw .invalidPath("“\(text.prefix(100))”: “[” without “]”.") }
            attributeText = trimmed[..<open]
            do {
                filter = try SCIMFilterParser.parse(String(trimmed[trimmed.index(after: open)..<close]))
            } catch {
                throw .invalidPath("“\(text.prefix(100))”: \(error.detail)")
            }
            let rest = trimmed[trimmed.index(after: close)...]
            if !rest.isEmpty {
                guard rest.first == ".", SCIMAttributePath.isName(rest.dropFirst()) else {
                    throw .invalidPath("“\(text.prefix(100))”: only “.subAttribute” may follow “]”.")
                }
                subAttribute = String(rest.dropFirst())
            }
        }
        guard let path = SCIMAttributePath(String(attributeText)) else {
            throw .invalidPath("“\(text.prefix(100))” is not an attribute path.")
        }
        if filter != nil, path.subAttribute != nil {
            throw .invalidPath("“\(text.prefix(100))”: a value filter follows an attribute, not a sub-attribute.")
        }
        var container: String?
        if let urn = path.schema, !urn.caseInsensitiveEquals(type.schema.id) {
            container = type.extensionSchema(urn)?.id ?? urn
        }
        return SCIMPatchPath(container: container, attribute: path.name, filter: filter, subAttribute: subAttribute ?? path.subAttribute)
    }
}
