import RosterKit

/// One operation of a PATCH request.
struct SCIMPatchOperation: Sendable {
    enum Kind: String, Sendable, CaseIterable { case add, replace, remove }

    var kind: Kind
    var path: SCIMPatchPath?
    var value: SCIMValue?
}

/// PATCH (RFC 7644 section 3.5.2) on a resource's representation. The server reads the
/// resource, applies the operations here, and writes the result as a PUT would, in one
/// transaction; so every attribute (modelled by Roster or kept in the document, a group's
/// members included) is patched the same way.
enum SCIMPatch {
    /// Reads a `PatchOp` body.
    static func operations(from body: SCIMValue, type: SCIMResourceType) throws(SCIMProblem) -> [SCIMPatchOperation] {
        guard case .object(let object) = body else { throw .invalidSyntax("A PATCH body must be a JSON object.") }
        if let schemas = object["schemas"], !(schemas.array ?? []).contains(where: { $0.string?.caseInsensitiveEquals(SCIMSchemas.patchOp) == true }) {
            throw .invalidSyntax("schemas must be [\"\(SCIMSchemas.patchOp)\"].")
        }
        guard let list = object["Operations"]?.array, !list.isEmpty else {
            throw .invalidSyntax("Operations must be a non-empty list of operations.")
        }
        var operations: [SCIMPatchOperation] = []
        for (index, item) in list.enumerated() {
            guard case .object(let operation) = item, let opText = operation["op"]?.string,
                  let kind = SCIMPatchOperation.Kind.allCases.first(where: { $0.rawValue.caseInsensitiveEquals(opText) })
            else {
                throw .invalidSyntax("Operations[\(index)]: op must be add, replace or remove.")
            }
            var path: SCIMPatchPath?
            if let pathValue = operation["path"] {
                guard case .string(let text) = pathValue else { throw .invalidPath("Operations[\(index)]: path must be a string.") }
                path = try SCIMPatchPath.parse(text, type: type)
            }
            if kind != .remove, operation["value"] == nil {
                throw .invalidValue("Operations[\(index)]: \(kind.rawValue) needs a value.")
            }
            if kind == .remove, path == nil {
                throw .noTarget("Operations[\(index)]: remove needs a path.")
            }
            operations.append(SCIMPatchOperation(kind: kind, path: path, value: operation["value"]))
        }
        return operations
    }

    static func apply(_ operations: [SCIMPatchOperation], to resource: SCIMObject, type: SCIMResourceType) throws(SCIMProblem) -> SCIMObject {
        var patcher = Patcher(resource: resource, type: type)
        for operation in operations { try patcher.apply(operation) }
        return patcher.resource
    }
}

private struct Patcher {
    var resource: SCIMObject
    let type: SCIMResourceType

    mutating func apply(_ operation: SCIMPatchOperation) throws(SCIMProblem) {
        let kind = operation.kind
        guard let path = operation.path else {
            // No path: the value is an object of attributes, each added or replaced.
            guard case .object(let attributes) = operation.value else {
                throw .invalidValue("Without a path, the value of \(kind.rawValue) must be an object of attributes.")
            }
            for member in attributes.members {
                if member.name.lowercased().hasPrefix("urn:"), case .object(let inner) = member.value {
                    let container = type.extensionSchema(member.name)?.id ?? member.name
                    for innerMember in inner.members {
                        try change(kind, container: container, attribute: innerMember.name, value: innerMember.value, explicit: false)
                    }
                } else {
                    try change(kind, container: nil, attribute: member.name, value: member.value, explicit: false)
                }
            }
            return
        }
        var container = path.container
        var attribute = path.attribute
        // A bare URN the schemas do not define, naming a container the resource has.
        if let named = container, let name = attribute, path.filter == nil, path.subAttribute == nil,
           let existing = resource.members.first(where: { $0.name.caseInsensitiveEquals(named + ":" + name) }) {
            container = existing.name
            attribute = nil
        }
        guard let attribute else {
            let container = container ?? type.schema.id
            if kind == .remove {
                resource[container] = nil
                return
            }
            guard case .object(let attributes) = operation.value else {
                throw .invalidValue("The value for \(container.prefix(100)) must be an object of its attributes.")
            }
            for member in attributes.members {
                try change(kind, container: container, attribute: member.name, value: member.value, explicit: false)
            }
            return
        }
        try change(kind, container: container, attribute: attribute, filter: path.filter, subAttribute: path.subAttribute,
                   value: operation.value, explicit: true)
    }

    private func definition(container: String?, attribute: String) -> SCIMAttribute? {
        if let container {
            return type.extensionSchema(container)?.attribute(attribute)
        }
        return (SCIMSchemaDefinitions.common + type.schema.attributes).first { $0.name.caseInsensitiveEquals(attribute) }
    }

    private mutating func change(
        _ kind: SCIMPatchOperation.Kind, container: String?, attribute rawName: String, filter: SCIMFilter? = nil,
        subAttribute: String? = nil, value: SCIMValue?, explicit: Bool
    ) throws(SCIMProblem) {
        let definition = definition(container: container, attribute: rawName)
        let name = definition?.name ?? rawName
        if container == nil, name.caseInsensitiveEquals("schemas") {
            if explicit { throw .invalidPath("schemas cannot be patched; it follows the extensions present.") }
            return
        }
        if definition?.mutability == .readOnly {
            // A full resource sent back without a path carries id, meta and groups: ignored.
            if explicit { throw .mutability("\(name) is read-only.") }
            return
        }
        var target: SCIMObject
        if let container {
            guard let existing = resource[container] else {
                if kind == .remove { return }
                target = SCIMObject()
                try change(kind, in: &target, name: name, definition: definition, filter: filter, subAttribute: subAttribute, value: value)
                if !target.isEmpty { resource[container] = .object(target) }
                return
            }
            guard case .object(let object) = existing else { throw .invalidPath("\(container.prefix(100)) is not an object.") }
            target = object
            try change(kind, in: &target, name: name, definition: definition, filter: filter, subAttribute: subAttribute, value: value)
            resource[container] = target.isEmpty ? nil : .object(target)
        } else {
            try change(kind, in: &resource, name: name, definition: definition, filter: filter, subAttribute: subAttribute, value: value)
        }
    }

    private func change(
        _ kind: SCIMPatchOperation.Kind, in target: inout SCIMObject, name: String, definition: SCIMAttribute?,
        filter: SCIMFilter?, subAttribute: String?, value rawValue: SCIMValue?
    ) throws(SCIMProblem) {
        // add or replace with null clears, as many clients mean it.
        let kind = (kind != .remove && (rawValue == nil || rawValue == .null)) ? .remove : kind
        let value = rawValue ?? .null
        let subName = subAttribute.map { definition?.subAttribute($0)?.name ?? $0 }
        let isMultiValued = definition?.multiValued ?? (target[name]?.array != nil || (target[name] == nil && value.array != nil))

        if let filter {
            var entries = target[name]?.array ?? []
            let matcher = SCIMValueFilter(attribute: definition)
            var matched: [Int] = []
            for (index, entry) in entries.enumerated() where try matcher.matches(filter, entry) { matched.append(index) }
            if matched.isEmpty {
                if kind == .remove { return } // removing what is not there leaves the resource as it is
                guard var entry = Self.entry(equalTo: filter) else {
                    throw .noTarget("No value of \(name) matches the filter.")
                }
                if let subName { entry[subName] = value } else if case .object(let object) = value { entry.members += object.members }
                entries.append(.object(entry))
            }
            for index in matched.reversed() {
                switch (kind, subName) {
                case (.remove, nil): entries.remove(at: index)
                case (.remove, let sub?): entries[index] = Self.setting(entries[index], sub, nil)
                case (_, let sub?): entries[index] = Self.setting(entries[index], sub, value)
                case (.add, nil): entries[index] = Self.merged(entries[index], value)
                case (.replace, nil): entries[index] = value
                }
            }
            target[name] = entries.isEmpty ? nil : .array(entries)
            return
        }

        if let subName {
            if case .array(var entries)? = target[name] {
                // A sub-attribute of every entry.
                for index in entries.indices { entries[index] = Self.setting(entries[index], subName, kind == .remove ? nil : value) }
                target[name] = .array(entries)
            } else if isMultiValued {
                if kind != .remove { target[name] = .array([.object(SCIMObject([SCIMObject.Member(name: subName, value: value)]))]) }
            } else {
                var object = target[name]?.object ?? SCIMObject()
                object[subName] = kind == .remove ? nil : value
                target[name] = object.isEmpty ? nil : .object(object)
            }
            return
        }

        switch kind {
        case .remove:
            if isMultiValued, let removals = value.array ?? (value == .null ? nil : [value]), case .array(var entries)? = target[name] {
                // remove with a value: those values (by their "value"), as Entra ID removes members.
                entries.removeAll { entry in removals.contains { Self.sameValue(entry, $0) } }
                target[name] = entries.isEmpty ? nil : .array(entries)
            } else {
                target[name] = nil
            }
        case .add where isMultiValued:
            var entries = target[name]?.array ?? []
            for item in value.array ?? [value] where !entries.contains(item) { entries.append(item) }
            target[name] = .array(entries)
        case .replace where isMultiValued:
            target[name] = .array(value.array ?? [value])
        case .add, .replace:
            if case .object? = target[name], case .object = value {
                target[name] = Self.merged(target[name]!, value)
            } else {
                target[name] = value
            }
        }
    }

    /// For `replace emails[type eq "work"].value` when there is no work email yet: the entry the
    /// filter describes, if it is only `eq` comparisons joined by `and`.
    private static func entry(equalTo filter: SCIMFilter) -> SCIMObject? {
        switch filter {
        case .compare(let path, .eq, let literal) where path.subAttribute == nil && path.schema == nil:
            let value: SCIMValue = switch literal {
            case .string(let text): .string(text)
            case .number(let text): .number(text)
            case .bool(let flag): .bool(flag)
            case .null: .null
            }
            return SCIMObject([SCIMObject.Member(name: path.name, value: value)])
        case .and(let left, let right):
            guard let a = entry(equalTo: left), let b = entry(equalTo: right) else { return nil }
            return SCIMObject(a.members + b.members)
        default:
            return nil
        }
    }

    private static func setting(_ entry: SCIMValue, _ name: String, _ value: SCIMValue?) -> SCIMValue {
        var object = entry.object ?? SCIMObject()
        object[name] = value
        return .object(object)
    }

    private static func merged(_ existing: SCIMValue, _ value: SCIMValue) -> SCIMValue {
        guard case .object(var object) = existing, case .object(let additions) = value else { return value }
        for member in additions.members { object[member.name] = member.value }
        return .object(object)
    }

    private static func sameValue(_ entry: SCIMValue, _ removal: SCIMValue) -> Bool {
        if entry == removal { return true }
        if let wanted = removal.object?["value"] { return entry.object?["value"] == wanted }
        return false
    }
}
