/// A menu of one-key choices in a box over the list: the key, then what it does.
@MainActor
public enum ChoiceView {
    public static func draw(_ content: ChoiceContent, layout: ScreenLayout, on canvas: any Canvas) {
        let keyWidth = content.options.map { TextWidth.columns(of: $0.key) }.max() ?? 1
        let width = min(max(40, TextWidth.columns(of: content.message) + 6), 64, layout.body.width - 4)
        let rect = layout.centered(width: width, height: content.options.count + 7)
        canvas.fill(rect, style: .dialog)
        canvas.drawBox(rect, title: content.title)
        let textWidth = rect.width - 6
        canvas.draw(content.message, at: Point(row: rect.row + 2, column: rect.column + 3), style: .bold, maxColumns: textWidth)
        for (offset, option) in content.options.enumerated() {
            let row = rect.row + 4 + offset
            guard row < rect.bottom - 2 else { break }
            canvas.draw(" \(option.key) ", at: Point(row: row, column: rect.column + 3), style: .hintKey)
            canvas.draw(option.label, at: Point(row: row, column: rect.column + 6 + keyWidth), style: .normal, maxColumns: textWidth - keyWidth - 3)
        }
        let row = rect.bottom - 2
        let used = canvas.draw(" Esc ", at: Point(row: row, column: rect.column + 3), style: .hintKey)
        canvas.draw(" \(content.escapeLabel)", at: Point(row: row, column: rect.column + 3 + used), style: .normal)
    }
}
