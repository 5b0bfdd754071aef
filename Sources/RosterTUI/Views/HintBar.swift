/// The bottom line: the keys that work right now. Hints that do not fit are left out whole,
/// from the end, but never the ones marked `keep` (help and quit): on a narrow terminal those
/// are what a person needs to find the rest.
@MainActor
public enum HintBar {
    public static func draw(_ hints: [Hint], in rect: Rect, on canvas: any Canvas) {
        canvas.fill(rect, style: .hint)
        var column = rect.column
        for hint in fitting(hints, width: rect.width) {
            let key = " \(hint.key) "
            let label = " \(hint.label) "
            let width = TextWidth.columns(of: key) + TextWidth.columns(of: label)
            guard column + width <= rect.right else { break }
            column += canvas.draw(key, at: Point(row: rect.row, column: column), style: .hintKey)
            column += canvas.draw(label, at: Point(row: rect.row, column: column), style: .hint)
        }
    }

    static func width(of hint: Hint) -> Int {
        TextWidth.columns(of: " \(hint.key) ") + TextWidth.columns(of: " \(hint.label) ")
    }

    /// `hints` in their order, without those from the end that do not fit beside the kept ones.
    static func fitting(_ hints: [Hint], width: Int) -> [Hint] {
        var shown = hints
        var used = shown.reduce(0) { $0 + Self.width(of: $1) }
        while used > width, let index = shown.lastIndex(where: { !$0.keep }) {
            used -= Self.width(of: shown.remove(at: index))
        }
        return shown
    }
}
