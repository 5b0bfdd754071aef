/// The import screen, in a box over the list: what the file holds (or what became of it),
/// one row per line of the file, scrolled with j/k; the counts above, the keys below.
@MainActor
public enum ImportView {
    /// Box border, summary, progress or note, column titles, a blank and the keys.
    static let chromeRows = 7

    /// How many file rows fit on a screen of this layout.
    public static func visibleRows(in layout: ScreenLayout) -> Int {
        max(1, layout.body.height - chromeRows)
    }

    public static func draw(_ content: ImportContent, layout: ScreenLayout, on canvas: any Canvas) {
        let width = min(110, layout.body.width - 2)
        let rect = layout.centered(width: width, height: layout.body.height)
        canvas.fill(rect, style: .dialog)
        canvas.drawBox(rect, title: content.title, style: .border, titleStyle: .dialogTitle)
        let left = rect.column + 2
        let inner = rect.width - 4
        var row = rect.row + 1

        canvas.draw(content.summary, at: Point(row: row, column: left), style: .bold, maxColumns: inner)
        row += 1
        if let progress = content.progress {
            let barWidth = min(30, max(10, inner / 3))
            let used = canvas.draw(ProgressBar.text(progress.fraction, width: barWidth), at: Point(row: row, column: left), style: .accent)
            canvas.draw(" " + progress.text, at: Point(row: row, column: left + used), style: .normal, maxColumns: inner - used)
        } else if let note = content.note {
            canvas.draw(note, at: Point(row: row, column: left), style: content.noteIsError ? .error : .success, maxColumns: inner)
        }
        row += 1

        // Columns: line, email, name, then what happens to the row.
        let lineWidth = 6
        let emailWidth = min(34, max(16, inner / 3))
        let nameWidth = min(24, max(10, inner / 5))
        let verdictColumn = left + lineWidth + emailWidth + nameWidth + 3
        let titles = content.columnTitles + Array(repeating: "", count: max(0, 4 - content.columnTitles.count))
        canvas.draw(titles[0], at: Point(row: row, column: left), style: .columnTitle, maxColumns: lineWidth)
        canvas.draw(titles[1], at: Point(row: row, column: left + lineWidth + 1), style: .columnTitle, maxColumns: emailWidth)
        canvas.draw(titles[2], at: Point(row: row, column: left + lineWidth + emailWidth + 2), style: .columnTitle, maxColumns: nameWidth)
        canvas.draw(titles[3], at: Point(row: row, column: verdictColumn), style: .columnTitle, maxColumns: rect.right - 2 - verdictColumn)
        row += 1
        let lastRow = rect.bottom - 3
        for item in content.rows where row <= lastRow {
            let selected = item.line == content.selectedLine
            canvas.draw(String(item.line), at: Point(row: row, column: left), style: selected ? .selected : .dim, maxColumns: lineWidth)
            canvas.draw(item.email, at: Point(row: row, column: left + lineWidth + 1), style: selected ? .selected : .normal, maxColumns: emailWidth)
            canvas.draw(item.name, at: Point(row: row, column: left + lineWidth + emailWidth + 2), style: .normal, maxColumns: nameWidth)
            let style: Style = switch item.tone {
            case .good: .success
            case .bad: .error
            case .quiet: .dim
            }
            canvas.draw(item.verdict, at: Point(row: row, column: verdictColumn), style: style, maxColumns: rect.right - 2 - verdictColumn)
            row += 1
        }
        if content.firstRow + content.rows.count < content.totalRows {
            canvas.draw(" ↓ more ", at: Point(row: rect.bottom - 2, column: rect.right - 10), style: .accent)
        }

        var column = left
        let actionRow = rect.bottom - 2
        for action in content.actions {
            column += canvas.draw(" \(action.key) ", at: Point(row: actionRow, column: column), style: .hintKey, maxColumns: max(0, rect.right - 12 - column))
            column += canvas.draw(" \(action.label)   ", at: Point(row: actionRow, column: column), style: .normal, maxColumns: max(0, rect.right - 12 - column))
        }
    }
}
