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
            drawLine(prompt: " Search: ", text: text, cursor: cursor, problem: nil, in: rect, on: canvas)
        case .filter(let text, let cursor, let problem):
            drawLine(prompt: " Filter: ", text: text, cursor: cursor, problem: problem, in: rect, on: canvas)
        case .prompt(let label, let text, let cursor, let problem):
            drawLine(prompt: " " + label, text: text, cursor: cursor, problem: problem, in: rect, on: canvas)
        }
    }

    /// A prompt and an editable line with its cursor; a problem takes the right end.
    private static func drawLine(prompt: String, text: String, cursor: Int, problem: String?, in rect: Rect, on canvas: any Canvas) {
        let promptWidth = canvas.draw(prompt, at: Point(row: rect.row, column: rect.column), style: .accent)
        var fieldWidth = rect.width - promptWidth - 1
        if let problem {
            let shownProblem = TextWidth.fit(problem, toColumns: max(0, fieldWidth / 2))
            let problemWidth = TextWidth.columns(of: shownProblem)
            canvas.draw(shownProblem, at: Point(row: rect.row, column: rect.right - problemWidth - 1), style: .error)
            fieldWidth -= problemWidth + 1
        }
        let shown = FormView.visibleWindow(of: text, cursor: cursor, width: fieldWidth)
        canvas.draw(shown.text, at: Point(row: rect.row, column: rect.column + promptWidth), style: .normal, maxColumns: fieldWidth)
        canvas.setCursor(Point(row: rect.row, column: rect.column + promptWidth + shown.cursorColumn))
    }
}
