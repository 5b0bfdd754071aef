import Foundation
import NIOCore
import RosterKit

/// Turns a create or update body into a valid, normalized `UserDraft`, or the problem to answer.
///
/// The draft itself is decoded with the wire model (`UserDraft`'s own `Decodable`) and judged
/// by `UserValidation`, the code the client's form runs, so the two cannot disagree. Before
/// that, a strict pass does what `Decodable` would not: it rejects fields the API does not
/// have (a typo such as "emial" must not be silently dropped) and values of the wrong type,
/// one field error per bad field.
enum DraftDecoding {
    static let knownFields = ["name", "email", "role", "status"]

    static func decode(_ body: ByteBuffer) throws(APIProblem) -> UserDraft {
        let data = Data(body.readableBytesView)
        let shape: DraftShape
        do {
            shape = try JSONDecoder().decode(DraftShape.self, from: data)
        } catch DecodingError.typeMismatch {
            throw .badRequest("The request body must be a JSON object.", code: "malformed_json")
        } catch {
            throw .badRequest("The request body is not valid JSON.", code: "malformed_json")
        }

        var problems = shape.problems
        let flagged = Set(problems.map(\.field))
        // Whatever fields did arrive as strings are still judged, so one answer names every bad field.
        let draft: UserDraft
        if problems.isEmpty, let decoded = try? WireFormat.makeDecoder().decode(UserDraft.self, from: data) {
            draft = UserValidation.normalized(decoded)
        } else {
            draft = UserValidation.normalized(UserDraft(
                name: shape.strings["name"] ?? "", email: shape.strings["email"] ?? "",
                role: shape.strings["role"].map(Role.init(rawValue:)),
                status: shape.strings["status"].map(Status.init(rawValue:))))
        }
        problems += UserValidation.problems(in: draft).filter { !flagged.contains($0.field) }
        guard problems.isEmpty else { throw .validationFailed(ordered(problems)) }
        return draft
    }

    /// Known fields in the contract's order, then unknown ones by name.
    private static func ordered(_ problems: [FieldError]) -> [FieldError] {
        func rank(_ field: String) -> Int { knownFields.firstIndex(of: field) ?? knownFields.count }
        return problems.sorted { (rank($0.field), $0.field) < (rank($1.field), $1.field) }
    }
}

/// The keys and value types of a body, before any meaning is given to them.
private struct DraftShape: Decodable {
    var strings: [String: String] = [:]
    var problems: [FieldError] = []

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        for key in container.allKeys {
            let field = key.stringValue
            guard DraftDecoding.knownFields.contains(field) else {
                problems.append(FieldError(
                    field: String(field.prefix(100)),
                    message: "Unknown field; a user has only name, email, role and status."))
                continue
            }
            if let value = try? container.decode(String.self, forKey: key) {
                strings[field] = value
            } else {
                problems.append(FieldError(field: field, message: "\(field.capitalized) must be a string."))
            }
        }
        for field in ["name", "email"] where strings[field] == nil && !problems.contains(where: { $0.field == field }) {
            problems.append(FieldError(field: field, message: "\(field.capitalized) is required."))
        }
    }
}
