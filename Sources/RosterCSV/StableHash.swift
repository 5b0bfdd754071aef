/// FNV-1a, 64 bits, as 16 hex digits: a name for a file's content that is the same on every
/// run and machine (Swift's `Hasher` is seeded per process). Not for security: it only has to
/// tell one import file from another. Fed block by block, so a file is hashed as it streams.
struct StableHash {
    private var hash: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
    }

    var hex: String {
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var hash = StableHash()
        hash.add(bytes)
        return hash.hex
    }
}
