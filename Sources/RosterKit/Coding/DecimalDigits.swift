/// A decimal number written as text (`-1.50e3`, `1500`, `1.5E+3`), reduced to its sign, its
/// significant digits and their power of ten, so that two spellings of one value compare equal:
/// how `JSONValue` tells whether a Double keeps a number's value.
struct DecimalDigits: Equatable {
    let negative: Bool
    let digits: [UInt8]
    let exponent: Int

    /// nil for text that is not a plain decimal number (`inf`, `nan`, empty).
    init?(_ text: String) {
        var bytes = Substring(text).utf8[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        var digits: [UInt8] = []
        var exponent = 0
        var afterPoint = false
        while let byte = bytes.first, byte != UInt8(ascii: "e"), byte != UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if byte == UInt8(ascii: ".") {
                guard !afterPoint else { return nil }
                afterPoint = true
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                if digits.isEmpty && byte == UInt8(ascii: "0") {
                    if afterPoint { exponent -= 1 }
                    continue
                }
                digits.append(byte)
                if afterPoint { exponent -= 1 }
            } else {
                return nil
            }
        }
        if !bytes.isEmpty {
            guard let written = Int(String(decoding: bytes.dropFirst(), as: UTF8.self)) else { return nil }
            exponent += written
        }
        while digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            exponent += 1
        }
        self.negative = negative && !digits.isEmpty
        self.digits = digits
        self.exponent = digits.isEmpty ? 0 : exponent
    }

    /// The value as a 64-bit integer, when it is a whole number that fits.
    var integer: Int64? {
        guard exponent >= 0, digits.count + exponent <= 19 else { return nil }
        if digits.isEmpty { return 0 }
        return Int64((negative ? "-" : "") + String(decoding: digits, as: UTF8.self) + String(repeating: "0", count: exponent))
    }
}
