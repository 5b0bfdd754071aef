/// Public user ids: 18 characters of lower-case Crockford base32 (URL-safe, no look-alike
/// letters). The first 10 are the creation time in milliseconds, so ids of later users sort
/// later; the last 8 are 40 random bits, so ids are not guessable in sequence.
enum UserID {
    private static let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz".utf8)

    static func make(milliseconds: Int64, randomBits: UInt64) -> String {
        var bytes = [UInt8](repeating: 0, count: 18)
        var time = UInt64(max(0, milliseconds))
        for index in stride(from: 9, through: 0, by: -1) {
            bytes[index] = alphabet[Int(time & 31)]
            time >>= 5
        }
        var random = randomBits
        for index in stride(from: 17, through: 10, by: -1) {
            bytes[index] = alphabet[Int(random & 31)]
            random >>= 5
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func make(milliseconds: Int64) -> String {
        var generator = SystemRandomNumberGenerator()
        return make(milliseconds: milliseconds, randomBits: generator.next())
    }
}
