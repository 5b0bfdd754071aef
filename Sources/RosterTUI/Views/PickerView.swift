/// What the picker draws: the text typed, the choices for it, and how the action went.
public struct PickerContent: Equatable, Sendable {
    public struct Row: Equatable, Sendable {
        public var title: String
        public var detail: String
        public init(title: String, detail: String = "") {
            self.title = title
            self.detail = detail
        }
    }

    public var title: String
    public var label: String
    public var text: String
    public var cursor: Int
    public var rows: [Row]
    public var selectedIndex: Int?
    /// Instead of rows: searching, nothing matches, the search failed.
    public var message: String?
    /// Below the rows: the action running, or its failure.
    public var footer: String?
    public var footerIsError = false
    public var isWorking = false

    public init(title: String, label: String, text: String, cursor: Int, rows: [Row], selectedIndex: Int?) {
        self.title = title
        self.label = label
        self.text = text
        self.cursor = cursor
        self.rows = rows
        self.selectedIndex = selectedIndex
    }
}

/// Choosing a user or a group by typing part of its name: a box with the line being typed, the
/// choices under it (the highlighted one is what Enter acts on), and the outcome at the bottom.
@MainActor
public enum PickerView {
    static let rowsShown = 8

    public static func draw(_ content: PickerContent, layout: ScreenLayout, on canvas: any Canvas) {
        let width = min(64, layout.body.width - 4)
        let rect = layout.centered(width: width, height: rowsShown + 8)
        canvas.fill(rect, style: .dialog)
        canvas.drawBox(rect, title: content.title, style: content.footerIsError ? .error : .border,
                       titleStyle: content.footerIsError ? .error : .dialogTitle)
        let left = rect.column + 3
        let inner = rect.width - 6
        let labelWidth = canvas.draw(content.label + " ", at: Point(row: rect.row + 2, column: left), style: .accent, maxColumns: inner / 3)
        let fieldColumn = left + labelWidth
        let fieldWidth = max(4, rect.right - 3 - fieldColumn)
        let shown = FormView.visibleWindow(of: content.text, cursor: content.cursor, width: fieldWidth)
        canvas.drawPadded(shown.text, at: Point(row: rect.row + 2, column: fieldColumn), width: fieldWidth, style: .inputFocused)

        let firstRow = rect.row + 4
        let rowsArea = max(0, min(rowsShown, rect.bottom - 3 - firstRow))
        if content.rows.isEmpty, let message = content.message {
            canvas.draw(message, at: Point(row: firstRow, column: left), style: .dim, maxColumns: inner)
        }
        let titleWidth = content.rows.contains { !$0.detail.isEmpty } ? inner * 9 / 20 : inner - 2
        for (offset, row) in content.rows.prefix(rowsArea).enumerated() {
            let selected = offset == content.selectedIndex
            let point = Point(row: firstRow + offset, column: left - 1)
            let style: Style = selected ? (content.isWorking ? .selectedInactive : .selected) : .dialog
            canvas.draw(selected ? "▌" : " ", at: point, style: style)
            canvas.drawPadded(row.title, at: Point(row: point.row, column: left), width: titleWidth, style: style)
            if !row.detail.isEmpty {
                canvas.draw(" " + row.detail, at: Point(row: point.row, column: left + titleWidth), style: .dim, maxColumns: inner - titleWidth)
            }
        }
        if let footer = content.footer {
            canvas.draw(footer, at: Point(row: rect.bottom - 2, column: left), style: content.footerIsError ? .error : .normal, maxColumns: inner)
        }
        canvas.setCursor(content.isWorking ? nil : Point(row: rect.row + 2, column: fieldColumn + shown.cursorColumn))
    }
}
