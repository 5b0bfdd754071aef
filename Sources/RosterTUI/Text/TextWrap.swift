/// Word wrapping by terminal columns, for dialog messages.
public enum TextWrap {
    /// Lines of at most `width` columns, broken at spaces where possible; a word longer than a
    /// line is cut. Existing line breaks are kept.
    public static func lines(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var result: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var lineWidth = 0
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
                var word = String(word)
                var wordWidth = TextWidth.columns(of: word)
                if lineWidth > 0 && lineWidth + 1 + wordWidth > width {
                    result.append(line)
                    line = ""
                    lineWidth = 0
                }
                while wordWidth > width {
                    let head = TextWidth.truncate(word, toColumns: width, ellipsis: "")
                    result.append(head)
                    word = String(word.dropFirst(head.count))
                    wordWidth = TextWidth.columns(of: word)
                }
                if lineWidth > 0 {
                    line += " "
                    lineWidth += 1
                }
                line += word
                lineWidth += wordWidth
            }
            result.append(line)
        }
        return result
    }
}
