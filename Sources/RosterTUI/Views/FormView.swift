/// The create/edit form: one line per field with its error (in red) under it, pickers for
/// role and status, and the submit and cancel buttons. The cursor is shown in the focused
/// text field.
@MainActor
public enum FormView {
    static let labelWidth = 8

    public static func draw(_ content: FormContent, layout: ScreenLayout, on canvas: any Canvas) {
        let width = min(72, layout.body.width - 2)
        let height = min(layout.body.height, 5 + content.fields.count * 2 + (content.problem == nil ? 0 : 2))
        let rect = layout.centered(width: width, height: height)
        canvas.fill(rect, style: .dialog)
        let title = content.isSubmitting ? "\(content.title) \(content.spinner ?? "…")" : content.title
        canvas.drawBox(rect, title: title)
        let left = rect.column + 3
        let fieldColumn = left + labelWidth + 1
        let fieldWidth = max(4, rect.right - 3 - fieldColumn)
        var row = rect.row + 2
        var cursor: Point?

        for (index, field) in content.fields.enumerated() where row < rect.bottom - 3 {
            let focused = content.focus == .field(index)
            canvas.draw(field.label, at: Point(row: row, column: left), style: focused ? .accent : .normal, maxColumns: labelWidth)
            switch field.kind {
            case .text(let text, let position):
                let shown = visibleWindow(of: text, cursor: position, width: fieldWidth)
                canvas.drawPadded(shown.text, at: Point(row: row, column: fieldColumn), width: fieldWidth, style: focused ? .inputFocused : .input)
                if focused { cursor = Point(row: row, column: fieldColumn + shown.cursorColumn) }
            case .picker(let options, let selected):
                let value = options.indices.contains(selected) ? options[selected] : "?"
                let text = focused ? "◀ \(value) ▶" : "  \(value)  "
                canvas.draw(text, at: Point(row: row, column: fieldColumn), style: focused ? .inputFocused : .normal, maxColumns: fieldWidth)
            }
            if let error = field.error {
                canvas.draw(error, at: Point(row: row + 1, column: fieldColumn), style: .error, maxColumns: fieldWidth)
            }
            row += 2
        }

        if let problem = content.problem {
            canvas.draw("✗ \(problem)", at: Point(row: rect.bottom - 4, column: left), style: .error, maxColumns: rect.width - 6)
        }
        let buttonRow = rect.bottom - 2
        var column = fieldColumn
        column += canvas.draw("[ \(content.submitLabel) ]", at: Point(row: buttonRow, column: column),
                              style: content.focus == .submit ? .buttonFocused : .button)
        column += 2
        canvas.draw("[ Cancel ]", at: Point(row: buttonRow, column: column), style: content.focus == .cancel ? .buttonFocused : .button)
        canvas.setCursor(content.isSubmitting ? nil : cursor)
    }

    /// The part of `text` to show in a field `width` columns wide so that the cursor is
    /// visible, and the cursor's column in it.
    static func visibleWindow(of text: String, cursor: Int, width: Int) -> (text: String, cursorColumn: Int) {
        let characters = Array(Sanitizer.sanitize(text))
        let cursor = min(max(0, cursor), characters.count)
        func columns(_ slice: ArraySlice<Character>) -> Int { TextWidth.columns(of: String(slice)) }
        var start = 0
        // Keep one column free for the cursor after the last character.
        while start < cursor && columns(characters[start..<cursor]) > width - 1 { start += 1 }
        let cursorColumn = columns(characters[start..<cursor])
        return (TextWidth.truncate(String(characters[start...]), toColumns: width, ellipsis: ""), cursorColumn)
    }
}
