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
            drawLine(prompt: label, text: text, cursor: cursor, problem: problem, in: rect, on: canvas)
        case .progress(let progress):
            drawProgress(progress, in: rect, on: canvas)
        }
    }

    /// " Suspending ██████░░░░ 412 / 1,000 · 85/s · 7 s left        Esc stop". The bar takes
    /// what the words leave (at most 30 columns); on a narrow line it goes first, then the
    /// detail is cut.
    private static func drawProgress(_ progress: ProgressContent, in rect: Rect, on canvas: any Canvas) {
        let stop = progress.stopHint.map { " \($0) " } ?? ""
        let stopWidth = TextWidth.columns(of: stop)
        let right = rect.right - stopWidth
        var column = rect.column + canvas.draw(" \(progress.title) ", at: Point(row: rect.row, column: rect.column), style: .accent,
                                               maxColumns: max(0, right - rect.column))
        let words = " \(progress.count)" + (progress.detail.isEmpty ? "" : " · \(progress.detail)")
        let barWidth = min(30, right - column - TextWidth.columns(of: words) - 1)
        if let fraction = progress.fraction, barWidth >= 8 {
            let filled = min(barWidth, Int((fraction * Double(barWidth)).rounded(.down)))
            column += canvas.draw(String(repeating: "█", count: filled), at: Point(row: rect.row, column: column), style: .progressDone)
            column += canvas.draw(String(repeating: "░", count: barWidth - filled), at: Point(row: rect.row, column: column), style: .dim)
        }
        if column < right {
            canvas.draw(words, at: Point(row: rect.row, column: column), style: .normal, maxColumns: right - column)
        }
        if stopWidth > 0, rect.width > stopWidth + 20 {
            canvas.draw(stop, at: Point(row: rect.row, column: right), style: .hintKey)
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
