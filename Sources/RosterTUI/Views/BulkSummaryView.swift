/// What a bulk run did, in a box over the list: the counts, the time and rate, then every
/// failure with its reason, scrolled with j/k when they do not fit.
@MainActor
public enum BulkSummaryView {
    /// Draws the summary scrolled by `scroll` failure lines; returns the largest useful scroll.
    @discardableResult
    public static func draw(_ content: SummaryContent, scroll: Int = 0, layout: ScreenLayout, on canvas: any Canvas) -> Int {
        let width = min(84, layout.body.width - 4)
        let textWidth = width - 6
        var head = content.lines.flatMap { TextWrap.lines($0, width: textWidth) }
        if !content.failures.isEmpty { head += ["", "Failed:"] }
        var failureLines: [(text: String, style: Style)] = []
        for failure in content.failures {
            failureLines.append((failure.who, .bold))
            failureLines += TextWrap.lines(failure.reason, width: textWidth - 2).map { ("  " + $0, .error) }
        }
        let rect = layout.centered(width: width, height: head.count + failureLines.count + 6)
        let room = max(0, rect.height - 6 - head.count)
        let maximumScroll = max(0, failureLines.count - room)
        let scroll = min(max(0, scroll), maximumScroll)

        canvas.fill(rect, style: .dialog)
        let frame: Style = content.isError ? .error : .border
        canvas.drawBox(rect, title: content.title, style: frame, titleStyle: content.isError ? .error : .dialogTitle)
        var row = rect.row + 2
        for (offset, line) in head.enumerated() where row < rect.bottom - 3 {
            canvas.draw(line, at: Point(row: row, column: rect.column + 3), style: offset == 0 ? .bold : .normal, maxColumns: textWidth)
            row += 1
        }
        for line in failureLines.dropFirst(scroll).prefix(room) {
            canvas.draw(line.text, at: Point(row: row, column: rect.column + 3), style: line.style, maxColumns: textWidth)
            row += 1
        }
        if scroll < maximumScroll {
            canvas.draw(" ↓ more: j/k ", at: Point(row: rect.bottom - 1, column: rect.right - 16), style: .accent)
        }
        var column = rect.column + 3
        let actionRow = rect.bottom - 2
        for action in content.actions {
            column += canvas.draw(" \(action.key) ", at: Point(row: actionRow, column: column), style: .hintKey, maxColumns: rect.right - 2 - column)
            column += canvas.draw(" \(action.label)   ", at: Point(row: actionRow, column: column), style: .normal, maxColumns: rect.right - 2 - column)
        }
        return maximumScroll
    }
}
