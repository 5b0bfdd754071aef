import Foundation

/// The JSON coders of the wire contract, shared by client and server so both read and write
/// the same bytes. Keys are spelled out by each model's `CodingKeys` (snake_case); no key
/// conversion strategy runs on the hot path.
public enum WireFormat {
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ISO8601Timestamp.format(date))
        }
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }

    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = ISO8601Timestamp.parse(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "Expected an ISO 8601 timestamp, found \"\(text.prefix(40))\"")
            }
            return date
        }
        return decoder
    }
}
