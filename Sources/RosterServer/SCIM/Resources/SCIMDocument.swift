/// Prepares what a client sent as a resource's document: attributes the schemas define get
/// their schema spelling (names ignore case, and filters reach stored values by the canonical
/// name) and are checked against their type; unassigned values (null, []) are dropped; a single
/// value given for a multi-valued attribute becomes a one-entry list. Everything the schemas do
/// not define (another extension, an identity provider's own URN) is kept exactly as sent.
enum SCIMDocument {
    static func normalize(_ resource: SCIMObject, type: SCIMResourceType, dropping dropped: [String]) throws(SCIMProblem) -> SCIMObject {
        var document = SCIMObject()
        for member in resource.members {
            guard !dropped.contains(where: { $0.caseInsensitiveEquals(member.name) }), !member.value.isUnassigned else { continue }
            if let extensionSchema = type.extensionSchema(member.name) {
                guard case .object(let object) = member.value else {
                    throw .invalidValue("\(extensionSchema.id) must be an object of its attributes.")
                }
                let normalized = try attributes(object, of: extensionSchema.attributes, context: extensionSchema.id + ":")
                if !normalized.isEmpty { document[extensionSchema.id] = .object(normalized) }
            } else if let attribute = (SCIMSchemaDefinitions.common + type.schema.attributes).first(where: { $0.name.caseInsensitiveEquals(member.name) }) {
                if let value = try self.value(member.value, of: attribute, context: "") { document[attribute.name] = value }
            } else {
                document.members.append(member)
            }
        }
        return document
    }

    private static func attributes(_ object: SCIMObject, of definitions: [SCIMAttribute], context: String) throws(SCIMProblem) -> SCIMObject {
        var result = SCIMObject()
        for member in object.members where !member.value.isUnassigned {
            if let attribute = definitions.first(where: { $0.name.caseInsensitiveEquals(member.name) }) {
                if let value = try value(member.value, of: attribute, context: context) { result[attribute.name] = value }
            } else {
                result.members.append(member)
            }
        }
        return result
    }

    /// The value in its schema form, or nil when it is unassigned.
    private static func value(_ value: SCIMValue, of attribute: SCIMAttribute, context: String) throws(SCIMProblem) -> SCIMValue? {
        if attribute.multiValued {
            let items = value.array ?? [value]
            var normalized: [SCIMValue] = []
            for item in items where !item.isUnassigned {
                if let single = try single(item, of: attribute, context: context) { normalized.append(single) }
            }
            return normalized.isEmpty ? nil : .array(normalized)
        }
        return try single(value, of: attribute, context: context)
    }

    private static func single(_ value: SCIMValue, of attribute: SCIMAttribute, context: String) throws(SCIMProblem) -> SCIMValue? {
        let name = context + attribute.name
        switch attribute.kind {
        case .complex:
            guard case .object(let object) = value else { throw .invalidValue("\(name) must be an object.") }
            let normalized = try attributes(object, of: attribute.subAttributes, context: name + ".")
            return normalized.isEmpty ? nil : .object(normalized)
        case .boolean:
            // Some identity providers (Entra ID among them) send booleans as "True" and "False".
            if case .string(let text) = value {
                if text.caseInsensitiveEquals("true") { return .bool(true) }
                if text.caseInsensitiveEquals("false") { return .bool(false) }
            }
            guard case .bool = value else { throw .invalidValue("\(name) must be true or false.") }
            return value
        case .integer, .decimal:
            guard case .number = value else { throw .invalidValue("\(name) must be a number.") }
            return value
        case .string, .reference, .binary, .dateTime:
            guard case .string = value else { throw .invalidValue("\(name) must be a string.") }
            return value
        }
    }
}
