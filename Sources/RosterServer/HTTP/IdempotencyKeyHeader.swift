import Hummingbird

/// Reads the `Idempotency-Key` request header (IETF httpapi draft) of a create.
///
/// The key is opaque: compared exactly as sent, whether a bare token (`Idempotency-Key: 4f1c…`)
/// or the draft's quoted form (`"4f1c…"`), which a client repeats the same way on its retries.
/// 1 to 255 printable ASCII characters; anything else is a 400 rather than a guess.
enum IdempotencyKeyHeader {
    // `HTTPField` itself is not among the names Hummingbird exports; its `Name` is reachable as this.
    static let name = HTTPFields.Element.Name("Idempotency-Key")!
    static let maximumLength = 255

    /// The key, nil when the header is absent.
    static func parse(_ headers: HTTPFields) throws(APIProblem) -> String? {
        try parse(values: headers[values: name])
    }

    /// The key from the header's values as received (one per header line).
    static func parse(values: [String]) throws(APIProblem) -> String? {
        guard let value = values.first else { return nil }
        guard values.count == 1 else { throw .badIdempotencyKey("Send one Idempotency-Key header, not \(values.count).") }
        guard !value.isEmpty else { throw .badIdempotencyKey("The Idempotency-Key header is empty; send a unique key such as a UUID.") }
        guard value.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else {
            throw .badIdempotencyKey("An Idempotency-Key is printable ASCII only; a UUID is a good key.")
        }
        guard value.utf8.count <= maximumLength else {
            throw .badIdempotencyKey("An Idempotency-Key is at most \(maximumLength) characters; this one has \(value.utf8.count).")
        }
        return value
    }
}
