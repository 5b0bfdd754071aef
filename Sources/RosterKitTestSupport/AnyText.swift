/// Text for property tests that is "any Unicode" in the ways that break code: every plane,
/// combining marks and zero-width joiners, C0 and C1 controls, quotes and backslashes, line and
/// paragraph separators, the BOM and noncharacters; lone surrogates cannot be in a `String`.
public enum AnyText {
    /// A string of up to 24 scalars.
    public static func string(using random: inout some RandomNumberGenerator) -> String {
        // No default argument for the count: with one, Swift 6.3.1's IRGen crashes (signal 11)
        // on a call that opens `inout any SeededRandomNumberGenerator` (PropertyBased's closures).
        string(maximumScalars: 24, using: &random)
    }

    /// A string of up to `maximumScalars` scalars.
    public static func string(maximumScalars: Int, using random: inout some RandomNumberGenerator) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...maximumScalars, using: &random) {
            scalars.append(scalar(using: &random))
        }
        return String(scalars)
    }

    /// One scalar, drawn from the kinds above with ASCII most often.
    public static func scalar(using random: inout some RandomNumberGenerator) -> Unicode.Scalar {
        let value: UInt32 = switch Int.random(in: 0..<10, using: &random) {
        case 0...2: UInt32.random(in: 0x20...0x7E, using: &random)
        case 3: [0x22, 0x5C, 0x2F, 0x00, 0x09, 0x0A, 0x0D, 0x1B, 0x7F, 0x85, 0xA0, 0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF, 0x10FFFF]
            .randomElement(using: &random)!
        case 4: UInt32.random(in: 0x300...0x36F, using: &random) // combining marks
        case 5: [0x200D, 0x200B, 0xFE0F, 0x1F3FD].randomElement(using: &random)! // joiners, selectors, skin tones
        case 6: UInt32.random(in: 0x80...0x7FF, using: &random)
        case 7: UInt32.random(in: 0x800...0xFFFF, using: &random)
        case 8: UInt32.random(in: 0x1F300...0x1FAFF, using: &random) // emoji
        default: UInt32.random(in: 0x10000...0x10FFFF, using: &random)
        }
        // A surrogate is no scalar: take its neighbour in the private use area instead.
        return Unicode.Scalar(value) ?? Unicode.Scalar(value + 0x800)!
    }
}
