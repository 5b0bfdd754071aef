/// The bottom line: the keys that work right now. Hints that do not fit are left out whole.
@MainActor
public enum HintBar {
    public static func draw(_ hints: [Hint], in rect: Rect, on canvas: any Canvas) {
        canvas.fill(rect, style: .hint)
        var column = rect.column
        for hint in hints {
            let key = " \(hint.key) "
            let label = " \(hint.label) "
            let width = TextWidth.columns(of: key) + TextWidth.columns(of: label)
            guard column + width <= rect.right else { break }
            column += canvas.draw(key, at: Point(row: rect.row, column: column), style: .hintKey)
            column += canvas.draw(label, at: Point(row: rect.row, column: column), style: .hint)
        }
    }
}
