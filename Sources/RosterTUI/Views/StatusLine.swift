/// The line above the hint bar: the search being typed (with the cursor), or the latest
/// status message.
@MainActor
public enum StatusLine {
    public static func draw(_ content: StatusContent, in rect: Rect, on canvas: any Canvas) {
        canvas.fill(rect, style: .normal)
        switch content {
        case .none:
            break
        case .message(let text, let isError):
            canvas.draw(" " + text, at: Point(row: rect.row, column: rect.column), style: isError ? .error : .success, maxColumns: rect.width)
        case .search(let text, let cursor):
            let prompt = " Search: "
            let promptWidth = canvas.draw(prompt, at: Point(row: rect.row, column: rect.column), style: .accent)
            let fieldWidth = rect.width - promptWidth - 1
            let shown = FormView.visibleWindow(of: text, cursor: cursor, width: fieldWidth)
            canvas.draw(shown.text, at: Point(row: rect.row, column: rect.column + promptWidth), style: .normal, maxColumns: fieldWidth)
            canvas.setCursor(Point(row: rect.row, column: rect.column + promptWidth + shown.cursorColumn))
        }
    }
}
