import Foundation

import RosterKit

/// `attributes` and `excludedAttributes` (RFC 7644 section 3.9): which attributes an answer
/// carries. `schemas`, `id` and `meta` are always returned.
struct SCIMProjection: Sendable {
    private struct Requested: Sendable {
        var text: String
        var path: SCIMAttributePath?
    }

    private var attributes: [Requested] = []
    private var excluded: [Requested] = []

    static let all = SCIMProjection()
    private static let alwaysReturned = ["schemas", "id", "meta"]

    private init() {}

    init(attributes: [String], excludedAttributes: [String]) throws(SCIMProblem) {
        self.attributes = try Self.requested(attributes, parameter: "attributes")
        self.excluded = try Self.requested(excludedAttributes, parameter: "excludedAttributes")
    }

    /// From query parameters: comma-separated lists.
    init(attributes: String?, excludedAttributes: String?) throws(SCIMProblem) {
        func list(_ text: String?) -> [String] {
            (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        try self.init(attributes: list(attributes), excludedAttributes: list(excludedAttributes))
    }

    private static func requested(_ names: [String], parameter: String) throws(SCIMProblem) -> [Requested] {
        try names.map { (text: String) throws(SCIMProblem) -> Requested in
            var path = SCIMAttributePath(text)
            // The core schema's URN names the resource's own attributes.
            if let urn = path?.schema, urn.caseInsensitiveEquals(SCIMSchemas.user) || urn.caseInsensitiveEquals(SCIMSchemas.group) {
                path?.schema = nil
            }
            guard path != nil || text.lowercased().hasPrefix("urn:") else {
                throw .invalidValue("\(parameter): “\(text.prefix(100))” is not an attribute path.")
            }
            return Requested(text: text, path: path)
        }
    }

    /// Whether the answer will carry `name` (a top-level attribute of the core schema).
    func includes(_ name: String) -> Bool {
        if excluded.contains(where: { $0.path?.schema == nil && $0.path?.subAttribute == nil && $0.path?.name.caseInsensitiveEquals(name) == true }) {
            return false
        }
        return attributes.isEmpty || attributes.contains { $0.path?.schema == nil && $0.path?.name.caseInsensitiveEquals(name) == true }
    }

    func apply(_ resource: SCIMObject) -> SCIMObject {
        var result = resource
        if !attributes.isEmpty {
            result = SCIMObject(resource.members.compactMap { member in
                if Self.alwaysReturned.contains(where: member.name.caseInsensitiveEquals) { return member }
                return Self.pick(member, attributes)
            })
        }
        if !excluded.isEmpty {
            result = SCIMObject(result.members.compactMap { member in
                if Self.alwaysReturned.contains(where: member.name.caseInsensitiveEquals) { return member }
                return Self.drop(member, excluded)
            })
        }
        return result
    }

    /// The part of `member` the requested paths name, or nil for none of it.
    private static func pick(_ member: SCIMObject.Member, _ requested: [Requested]) -> SCIMObject.Member? {
        if requested.contains(where: { $0.text.caseInsensitiveEquals(member.name) }) { return member }
        if member.name.lowercased().hasPrefix("urn:") {
            let inner = requested.compactMap { $0.path }.filter { $0.schema?.caseInsensitiveEquals(member.name) == true }
            guard !inner.isEmpty, case .object(let object) = member.value else { return nil }
            let picked = SCIMObject(object.members.compactMap { pick($0, inner.map { Requested(text: $0.name, path: SCIMAttributePath(name: $0.name, subAttribute: $0.subAttribute)) }) })
            return picked.isEmpty ? nil : SCIMObject.Member(name: member.name, value: .object(picked))
        }
        let paths = requested.compactMap(\.path).filter { $0.schema == nil && $0.name.caseInsensitiveEquals(member.name) }
        guard !paths.isEmpty else { return nil }
        if paths.contains(where: { $0.subAttribute == nil }) { return member }
        let subs = paths.compactMap(\.subAttribute)
        return SCIMObject.Member(name: member.name, value: keeping(subs, of: member.value))
    }

    private static func drop(_ member: SCIMObject.Member, _ excluded: [Requested]) -> SCIMObject.Member? {
        if excluded.contains(where: { $0.text.caseInsensitiveEquals(member.name) }) { return nil }
        if member.name.lowercased().hasPrefix("urn:"), case .object(let object) = member.value {
            let inner = excluded.compactMap(\.path).filter { $0.schema?.caseInsensitiveEquals(member.name) == true }
            guard !inner.isEmpty else { return member }
            let kept = SCIMObject(object.members.compactMap { drop($0, inner.map { Requested(text: $0.name, path: SCIMAttributePath(name: $0.name, subAttribute: $0.subAttribute)) }) })
            return kept.isEmpty ? nil : SCIMObject.Member(name: member.name, value: .object(kept))
        }
        let paths = excluded.compactMap(\.path).filter { $0.schema == nil && $0.name.caseInsensitiveEquals(member.name) }
        if paths.contains(where: { $0.subAttribute == nil }) { return nil }
        let subs = paths.compactMap(\.subAttribute)
        guard !subs.isEmpty else { return member }
        return SCIMObject.Member(name: member.name, value: removing(subs, of: member.value))
    }

    private static func keeping(_ subs: [String], of value: SCIMValue) -> SCIMValue {
        switch value {
        case .object(let object): .object(SCIMObject(object.members.filter { member in subs.contains(where: member.name.caseInsensitiveEquals) }))
        case .array(let items): .array(items.map { keeping(subs, of: $0) })
        default: value
        }
    }

    private static func removing(_ subs: [String], of value: SCIMValue) -> SCIMValue {
        switch value {
        case .object(let object): .object(SCIMObject(object.members.filter { member in !subs.contains(where: member.name.caseInsensitiveEquals) }))
        case .array(let items): .array(items.map { removing(subs, of: $0) })
        default: value
        }
    }
}
