/// `U`: the recent changes and runs (or one run's users, or an undo's progress and summary),
/// in a box over the whole body. A row is one line: when, a state mark, what, how many; it is
/// cut at the right, so the when and the state stay readable on a narrow terminal.
@MainActor
public enum RecentChangesView {
    /// Box border, title line, subtitle, progress or note, blank, keys.
    static let chromeRows = 6

    public static func visibleRows(in layout: ScreenLayout) -> Int {
        max(1, layout.body.height - chromeRows)
    }

    public static func draw(_ content: RecentChangesContent, layout: ScreenLayout, on canvas: any Canvas) {
        let rect = layout.centered(width: min(120, layout.body.width), height: layout.body.height)
        canvas.fill(rect, style: .dialog)
        canvas.drawBox(rect, title: content.title, style: .border, titleStyle: .dialogTitle)
        let left = rect.column + 2
        let inner = max(1, rect.width - 4)
        var row = rect.row + 1
        canvas.draw(content.subtitle, at: Point(row: row, column: left), style: .bold, maxColumns: inner)
        row += 1
        if let progress = content.progress {
            let barWidth = min(30, max(6, inner / 3))
            let used = canvas.draw(ProgressBar.text(progress.fraction, width: barWidth), at: Point(row: row, column: left), style: .accent)
            canvas.draw(" " + progress.text, at: Point(row: row, column: left + used), style: .normal, maxColumns: max(0, inner - used))
        } else if let note = content.note {
            canvas.draw(note, at: Point(row: row, column: left), style: content.noteIsError ? .error : .normal, maxColumns: inner)
        }
        row += 1
        let lastRow = rect.bottom - 3
        for (index, item) in content.rows.enumerated() where row <= lastRow {
            let isSelected = content.firstRow + index == content.selected
            if isSelected { canvas.fill(Rect(row: row, column: left - 1, width: inner + 2, height: 1), style: .selected) }
            var column = left
            column += canvas.draw(item.when + " ", at: Point(row: row, column: column), style: isSelected ? .selected : .dim, maxColumns: inner)
            let toneStyle: Style = switch item.tone {
            case .good: .success
            case .bad: .error
            case .warning: .warning
            case .quiet: .dim
            }
            let markStyle: Style = isSelected ? .selected : toneStyle
            column += canvas.draw(item.mark + " ", at: Point(row: row, column: column), style: markStyle, maxColumns: max(0, left + inner - column))
            canvas.draw(item.text, at: Point(row: row, column: column), style: isSelected ? .selected : .normal, maxColumns: max(0, left + inner - column))
            row += 1
        }
        if content.rows.isEmpty, let empty = content.empty {
            canvas.draw(empty, at: Point(row: row, column: left), style: .dim, maxColumns: inner)
        }
        if content.firstRow + content.rows.count < content.totalRows {
            canvas.draw(" ↓ more ", at: Point(row: rect.bottom - 1, column: max(left, rect.right - 10)), style: .accent)
        }
        var column = left
        let actionRow = rect.bottom - 2
        for action in content.actions {
            column += canvas.draw(" \(action.key) ", at: Point(row: actionRow, column: column), style: .hintKey, maxColumns: max(0, rect.right - 2 - column))
            column += canvas.draw(" \(action.label)  ", at: Point(row: actionRow, column: column), style: .normal, maxColumns: max(0, rect.right - 2 - column))
        }
    }
}

/// What the recent changes screen shows (made by the presenter from the journal's models).
public struct RecentChangesContent: Equatable, Sendable {
    public struct Row: Equatable, Sendable {
        public enum Tone: Sendable, Equatable { case good, bad, warning, quiet }
        /// "11-26 01:02"
        public var when: String
        /// "done", "stopped", "interrupted", "?" (may have landed)…
        public var mark: String
        /// "Suspending · 200 users", "Ana Silva <ana@…>: status active → suspended".
        public var text: String
        public var tone: Tone

        public init(when: String, mark: String, text: String, tone: Tone) {
            self.when = when
            self.mark = mark
            self.text = text
            self.tone = tone
        }
    }

    public var title: String
    public var subtitle: String
    public var progress: (fraction: Double, text: String)?
    public var note: String?
    public var noteIsError = false
    public var rows: [Row]
    /// The index (in all rows) of `rows.first`, and of the selected row.
    public var firstRow: Int
    public var selected: Int
    public var totalRows: Int
    /// Said when there are no rows.
    public var empty: String?
    public var actions: [Hint]

    public init(title: String, subtitle: String, rows: [Row], firstRow: Int, selected: Int, totalRows: Int, actions: [Hint]) {
        self.title = title
        self.subtitle = subtitle
        self.rows = rows
        self.firstRow = firstRow
        self.selected = selected
        self.totalRows = totalRows
        self.actions = actions
    }

    public static func == (lhs: RecentChangesContent, rhs: RecentChangesContent) -> Bool {
        lhs.title == rhs.title && lhs.subtitle == rhs.subtitle && lhs.progress?.fraction == rhs.progress?.fraction
            && lhs.progress?.text == rhs.progress?.text && lhs.note == rhs.note && lhs.noteIsError == rhs.noteIsError
            && lhs.rows == rhs.rows && lhs.firstRow == rhs.firstRow && lhs.selected == rhs.selected && lhs.totalRows == rhs.totalRows
            && lhs.empty == rhs.empty && lhs.actions == rhs.actions
    }
}
