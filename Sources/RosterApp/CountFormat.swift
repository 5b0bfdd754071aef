/// Counts as the screen shows them: 100000 → "100,000". One place, so the list's position,
/// the header's user count and the model's label cannot disagree.
public enum CountFormat {
    public static func grouped(_ number: Int) -> String {
        // Bytes, not Characters: every frame shows two of these ("2 / 100,000"), and walking
        // Characters (with `count` at each step) was 1% of a key (perf).
        let digits = String(number.magnitude).utf8
        let count = digits.count
        let length = count + (count - 1) / 3 + (number < 0 ? 1 : 0)
        return String(unsafeUninitializedCapacity: length) { buffer in
            var end = 0
            if number < 0 {
                buffer[end] = UInt8(ascii: "-")
                end += 1
            }
            for (index, digit) in digits.enumerated() {
                if index > 0, (count - index) % 3 == 0 {
                    buffer[end] = UInt8(ascii: ",")
                    end += 1
                }
                buffer[end] = digit
                end += 1
            }
            return end
        }
    }
}
