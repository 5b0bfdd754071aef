import Foundation

/// The OpenAPI 3.1 document of the API, kept in the repository as
/// `Sources/RosterServer/Resources/openapi.json` and served as it is at `/openapi.json`.
public enum OpenAPIDocument {
    public enum LoadError: Error, CustomStringConvertible {
        case missing
        public var description: String { "openapi.json is missing from the RosterServer resource bundle" }
    }

    /// The document's bytes, read from the resource bundle.
    public static func load() throws -> Data {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json") else { throw LoadError.missing }
        return try Data(contentsOf: url)
    }
}
