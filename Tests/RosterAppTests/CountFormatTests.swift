import Testing
@testable import RosterApp

/// Counts as the screen shows them: a comma between each three digits, written as bytes.
@Suite("CountFormat")
struct CountFormatTests {
    @Test("digits grouped by three, at every length and sign")
    func groupedByThree() {
        let expected: [(Int, String)] = [
            (0, "0"), (7, "7"), (42, "42"), (999, "999"), (1_000, "1,000"), (12_345, "12,345"),
            (100_000, "100,000"), (1_000_000, "1,000,000"), (-1, "-1"), (-1_000, "-1,000"),
            (-999_999, "-999,999"), (Int.max, "9,223,372,036,854,775,807"), (Int.min, "-9,223,372,036,854,775,808"),
        ]
        for (number, text) in expected {
            #expect(CountFormat.grouped(number) == text)
        }
        // Against the digits read back: every length from 1 to 19 digits.
        var number = 1
        for _ in 1...18 {
            number = number * 10 + 3
            let text = CountFormat.grouped(number)
            #expect(Int(text.filter { $0 != "," }) == number)
            let groups = text.split(separator: Character(","))
            #expect(groups.dropFirst().allSatisfy { $0.count == 3 } && (1...3).contains(groups[0].count))
        }
    }
}
