/// A centred box with a message and the keys that act on it: the error dialog (retry, close)
/// and the delete confirmation.
@MainActor
public enum DialogView {
    public static func draw(_ content: DialogContent, layout: ScreenLayout, on canvas: any Canvas) {
        let width = min(64, layout.body.width - 4)
        let textWidth = width - 6
        var lines = TextWrap.lines(content.message, width: textWidth)
        if let detail = content.detail, !detail.isEmpty {
            lines.append("")
            lines += TextWrap.lines(detail, width: textWidth)
        }
        let height = min(lines.count + 6, layout.body.height)
        let rect = layout.centered(width: width, height: height)
        canvas.fill(rect, style: .dialog)
        let frame: Style = content.isError ? .error : .border
        canvas.drawBox(rect, title: content.title, style: frame, titleStyle: content.isError ? .error : .dialogTitle)
        for (offset, line) in lines.prefix(max(0, rect.height - 5)).enumerated() {
            let style: Style = offset == 0 ? .bold : .normal
            canvas.draw(line, at: Point(row: rect.row + 2 + offset, column: rect.column + 3), style: style, maxColumns: textWidth)
        }
        var column = rect.column + 3
        let actionRow = rect.bottom - 2
        for action in content.actions {
            let key = " \(action.key) "
            column += canvas.draw(key, at: Point(row: actionRow, column: column), style: .hintKey, maxColumns: rect.right - 2 - column)
            column += canvas.draw(" \(action.label)   ", at: Point(row: actionRow, column: column), style: .normal, maxColumns: rect.right - 2 - column)
        }
    }
}
