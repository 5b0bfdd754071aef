import Foundation
import Hummingbird
import RosterKit

/// `POST /Bulk` (RFC 7644 section 3.7): up to `maximumOperations` operations in a body of at
/// most `SCIMBody.maximumBytes`, each run as the single request it describes, in order, so
/// each is atomic on its own (one transaction) and a failure leaves the others as they went.
/// `bulkId:` references in a later operation's path or data become the id an earlier POST made.
/// `failOnErrors` stops after that many failures.
struct SCIMBulk {
    static let maximumOperations = 1000
    static let requestSchema = "urn:ietf:params:scim:api:messages:2.0:BulkRequest"
    static let responseSchema = "urn:ietf:params:scim:api:messages:2.0:BulkResponse"

    let service: SCIMService

    func perform(_ request: SCIMRequest) async throws -> SCIMAnswer {
        guard case .object(let body)? = request.body else { throw SCIMProblem.invalidSyntax("A Bulk request must be a JSON object.") }
        guard let operations = body["Operations"]?.array else { throw SCIMProblem.invalidSyntax("Operations must be a list.") }
        guard operations.count <= Self.maximumOperations else {
            throw SCIMProblem(status: .contentTooLarge, detail: "A Bulk request may hold at most \(Self.maximumOperations) operations; this one has \(operations.count).")
        }
        var failOnErrors = Int.max
        if let value = body["failOnErrors"] {
            guard case .number(let literal) = value, let number = Int(literal), number > 0 else {
                throw SCIMProblem.invalidValue("failOnErrors must be a positive integer.")
            }
            failOnErrors = number
        }

        var createdIDs: [String: String] = [:]
        var results: [SCIMValue] = []
        var errors = 0
        for (index, item) in operations.enumerated() {
            guard errors < failOnErrors else { break }
            let result: SCIMObject
            do {
                result = try await perform(item, index: index, baseURL: request.baseURL, createdIDs: &createdIDs)
            } catch let problem as SCIMProblem {
                result = Self.failure(item, problem)
            }
            if let status = result["status"]?.string, let code = Int(status), code >= 400 { errors += 1 }
            results.append(.object(result))
        }
        return SCIMAnswer(status: .ok, body: .object(SCIMObject([
            "schemas": .array([.string(Self.responseSchema)]),
            "Operations": .array(results),
        ])))
    }

    private func perform(_ item: SCIMValue, index: Int, baseURL: String, createdIDs: inout [String: String]) async throws -> SCIMObject {
        guard case .object(let operation) = item else { throw SCIMProblem.invalidSyntax("Operations[\(index)] must be an object.") }
        guard let methodText = operation["method"]?.string,
              let method = [HTTPRequest.Method.post, .put, .patch, .delete].first(where: { $0.rawValue.caseInsensitiveEquals(methodText) })
        else {
            throw SCIMProblem.invalidSyntax("Operations[\(index)]: method must be POST, PUT, PATCH or DELETE.")
        }
        guard let rawPath = operation["path"]?.string else { throw SCIMProblem.invalidSyntax("Operations[\(index)]: path is required.") }
        let bulkID = operation["bulkId"]?.string
        if method == .post, bulkID == nil { throw SCIMProblem.invalidSyntax("Operations[\(index)]: a POST needs a bulkId.") }
        let path = try Self.resolving(rawPath, createdIDs)
        let segments = path.split(separator: "/").map(String.init)
        guard let endpoint = segments.first, ["Users", "Groups"].contains(endpoint), segments.count == (method == .post ? 1 : 2) else {
            throw SCIMProblem.invalidPath("Operations[\(index)]: path must be /Users or /Groups (POST), or /Users/{id} or /Groups/{id}.")
        }
        let data = try operation["data"].map { (value: SCIMValue) throws(SCIMProblem) -> SCIMValue in try Self.resolving(value, createdIDs) }
        if method != .delete, data == nil { throw SCIMProblem.invalidSyntax("Operations[\(index)]: data is required for \(method.rawValue).") }

        let answer = try await service.handle(SCIMRequest(
            method: method, path: segments, ifMatch: operation["version"]?.string, body: data, baseURL: baseURL))
        var result = SCIMObject(["method": .string(method.rawValue)])
        if let bulkID { result["bulkId"] = .string(bulkID) }
        if let version = answer.headers[.eTag] { result["version"] = .string(version) }
        let location = answer.body?.object?["meta"]?.object?["location"]?.string
            ?? (method == .delete ? nil : "\(baseURL)/\(path.trimmingCharacters(in: ["/"]))")
        if let location { result["location"] = .string(location) }
        if method == .post, let bulkID, let id = answer.body?.object?["id"]?.string { createdIDs[bulkID] = id }
        result["status"] = .string(String(answer.status.code))
        return result
    }

    private static func failure(_ item: SCIMValue, _ problem: SCIMProblem) -> SCIMObject {
        var result = SCIMObject()
        if let method = item.object?["method"] { result["method"] = method }
        if let bulkID = item.object?["bulkId"] { result["bulkId"] = bulkID }
        result["status"] = .string(String(problem.status.code))
        result["response"] = problem.body
        return result
    }

    /// `bulkId:x` → the id the POST with bulkId x made.
    private static func resolving(_ text: String, _ createdIDs: [String: String]) throws(SCIMProblem) -> String {
        guard text.contains("bulkId:") else { return text }
        var result = ""
        for (position, part) in text.split(separator: "/", omittingEmptySubsequences: false).enumerated() {
            if position > 0 { result += "/" }
            result += try resolvedReference(String(part), createdIDs)
        }
        return result
    }

    private static func resolving(_ value: SCIMValue, _ createdIDs: [String: String]) throws(SCIMProblem) -> SCIMValue {
        switch value {
        case .string(let text): return .string(try resolvedReference(text, createdIDs))
        case .array(let items):
            var resolved: [SCIMValue] = []
            for item in items { resolved.append(try resolving(item, createdIDs)) }
            return .array(resolved)
        case .object(let object):
            var resolved = SCIMObject()
            for member in object.members { resolved.members.append(.init(name: member.name, value: try resolving(member.value, createdIDs))) }
            return .object(resolved)
        default: return value
        }
    }

    private static func resolvedReference(_ text: String, _ createdIDs: [String: String]) throws(SCIMProblem) -> String {
        guard text.hasPrefix("bulkId:") else { return text }
        let bulkID = String(text.dropFirst("bulkId:".count))
        guard let id = createdIDs[bulkID] else {
            throw SCIMProblem(status: .conflict, scimType: "invalidValue",
                              detail: "bulkId:\(bulkID.prefix(100)) names no resource an earlier operation of this request created.")
        }
        return id
    }
}
