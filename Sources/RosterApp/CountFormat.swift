/// Counts as the screen shows them: 100000 → "100,000". One place, so the list's position,
/// the header's user count and the model's label cannot disagree.
public enum CountFormat {
    public static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var result = number < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }
}
