/// The known name nearest a mistyped one ("pagesize" → "pageSize"), by edit distance
/// ignoring case; nil when none is near enough to be a typo.
enum KeySuggestion {
    static func nearest(to typed: String, among known: [String]) -> String? {
        let scored = known.map { ($0, distance(Array(typed.lowercased()), Array($0.lowercased()))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        // A third of the name may be wrong, at least two letters: a typo, not another word.
        return best.1 <= max(2, typed.count / 3) ? best.0 : nil
    }

    /// Levenshtein distance: the fewest insertions, deletions and substitutions.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var row = [i + 1]
            for (j, y) in b.enumerated() {
                row.append(Swift.min(previous[j + 1] + 1, row[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = row
        }
        return previous[b.count]
    }
}
