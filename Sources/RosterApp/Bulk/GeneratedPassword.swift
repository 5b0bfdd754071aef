/// A password made for the help desk's reset (Ctrl-G on the password line): 16 characters from
/// the system's CSPRNG, at least one of each class AD's default complexity counts (upper,
/// lower, digit, symbol), none that reads like another (0 O o, 1 l I |), no quote, backslash or
/// space that a shell or a form would trip on. 16 from 71 characters is about 98 bits.
enum GeneratedPassword {
    static let length = 16
    static let classes: [[Character]] = [
        Array("ABCDEFGHJKLMNPQRSTUVWXYZ"),
        Array("abcdefghijkmnpqrstuvwxyz"),
        Array("23456789"),
        Array("!#$%&*+-=?@^_"),
    ]

    /// A new password that holds no part (three characters or more, between separators) of the
    /// words in `avoiding`, in any case: AD refuses one holding a part of the account's name.
    static func make(avoiding words: [String] = []) -> String {
        var generator = SystemRandomNumberGenerator()
        let tokens = forbiddenTokens(in: words)
        while true {
            let password = draw(using: &generator)
            let lowered = password.lowercased()
            if !tokens.contains(where: { lowered.contains($0) }) { return password }
        }
    }

    /// One of each class, the rest from all of them, in a shuffled order. `randomElement(using:)`
    /// and `shuffled(using:)` draw without modulo bias.
    private static func draw(using generator: inout SystemRandomNumberGenerator) -> String {
        let all = classes.flatMap { $0 }
        var characters = classes.map { $0.randomElement(using: &generator)! }
        while characters.count < length { characters.append(all.randomElement(using: &generator)!) }
        return String(characters.shuffled(using: &generator))
    }

    /// AD's rule: the name split at separators, each part of three characters or more.
    private static func forbiddenTokens(in words: [String]) -> [String] {
        words.flatMap { word in
            word.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
        }.filter { $0.count >= 3 }
    }
}
