/// The user list: a box with the sort order and position in its top edge, column titles,
/// and one line per user. Rows of pages still loading are placeholders; a page that failed
/// shows its error in place, with the key that retries it.
@MainActor
public enum UserListView {
    struct Columns: Equatable {
        var name: Int
        var email: Int
        var role: Int
        var status: Int

        /// Splits `width` columns: role (when shown) and status fixed, name and email share the rest.
        init(width: Int, showsRoles: Bool = true) {
            role = showsRoles ? 7 : 0
            status = 9
            let flexible = max(10, width - 1 - role - status - (showsRoles ? 4 : 3))
            name = flexible * 9 / 20
            email = flexible - name
        }
    }

    public static func draw(_ content: ListContent, in rect: Rect, on canvas: any Canvas) {
        draw(content, replacing: nil, in: rect, on: canvas)
    }

    /// Draws the list over `previous`, what this same rectangle shows now (nil: nothing of it,
    /// the rectangle is blank). Only the lines that differ are drawn: a `j` that moves the
    /// selection inside the screen redraws the top edge (the position) and two rows.
    static func draw(_ content: ListContent, replacing previous: ListContent?, in rect: Rect, on canvas: any Canvas) {
        // The border's style, the columns, or the centred message of an empty list span every line.
        let previous = previous.flatMap {
            $0.focused == content.focused && $0.showsRoles == content.showsRoles && !$0.rows.isEmpty && !content.rows.isEmpty ? $0 : nil
        }
        let style: Style = content.focused ? .border : .dim
        if let previous {
            let moved = previous.selectedIndex != content.selectedIndex || previous.total != content.total
                || previous.totalIsLowerBound != content.totalIsLowerBound
            if !sameTitle(previous, content) || moved && positionColumns(previous) != positionColumns(content) {
                canvas.drawTopEdge(of: rect, title: title(content), style: style)
                drawPosition(of: content, in: rect, on: canvas)
            } else if moved {
                // The same width over the same cells: the border around it stays as it is.
                drawPosition(of: content, in: rect, on: canvas)
            }
        } else {
            canvas.fill(rect, style: .normal)
            canvas.drawBox(rect, title: title(content), style: style)
            drawPosition(of: content, in: rect, on: canvas)
        }

        let inner = rect.inset(by: 1)
        guard inner.height >= 2, inner.width >= 10 else { return }
        let columns = Columns(width: inner.width, showsRoles: content.showsRoles)
        if content.sort != previous?.sort {
            drawTitles(columns, sort: content.sort, at: Point(row: inner.row, column: inner.column), width: inner.width, on: canvas)
        }

        let rowsArea = Rect(row: inner.row + 1, column: inner.column, width: inner.width, height: inner.height - 1)
        if content.rows.isEmpty {
            let message = [content.spinner, content.emptyMessage].compactMap { $0 }.joined(separator: " ")
            if !message.isEmpty {
                let width = min(TextWidth.columns(of: message), rowsArea.width)
                canvas.draw(message, at: Point(row: rowsArea.row + rowsArea.height / 2, column: rowsArea.column + (rowsArea.width - width) / 2),
                            style: .dim, maxColumns: rowsArea.width)
            }
            return
        }
        // The same rows in the same place (a move inside the screen, a mark): only the lines
        // whose selection or mark changed are drawn, and no row's texts are compared. Both
        // arrays are usually the Presenter's one array (RowsMemo), which == sees at once.
        let sameRows = previous.map { $0.firstIndex == content.firstIndex && $0.rows == content.rows } ?? false
        for offset in 0..<rowsArea.height {
            if let previous, sameRows {
                guard offset < content.rows.count else { break }
                let index = content.firstIndex + offset
                if (index == content.selectedIndex) == (index == previous.selectedIndex),
                   content.marked.contains(index) == previous.marked.contains(index) { continue }
            }
            let line = visibleLine(offset, of: content)
            if let previous, !sameRows, line == visibleLine(offset, of: previous) { continue }
            let point = Point(row: rowsArea.row + offset, column: rowsArea.column)
            if let line {
                drawRow(line.row, selected: line.selected, marked: line.marked, focused: content.focused, columns: columns,
                        at: point, width: rowsArea.width, on: canvas, markOnly: previous != nil && sameRows)
            } else if previous != nil {
                canvas.fill(point, width: rowsArea.width, style: .normal)
            }
        }
    }

    /// What one line of the rows area shows: the row and whether it is the selected one.
    private struct VisibleLine: Equatable {
        var row: ListRowContent
        var selected: Bool
        var marked: Bool
    }

    private static func visibleLine(_ offset: Int, of content: ListContent) -> VisibleLine? {
        guard offset < content.rows.count else { return nil }
        let index = content.firstIndex + offset
        return VisibleLine(row: content.rows[offset], selected: index == content.selectedIndex, marked: content.marked.contains(index))
    }

    /// Whether `title` is the same for both, without making either.
    private static func sameTitle(_ one: ListContent, _ other: ListContent) -> Bool {
        one.search == other.search && one.sort.label == other.sort.label && one.filter == other.filter
    }

    private static func title(_ content: ListContent) -> String {
        var title = content.search.isEmpty ? "Users · \(content.sort.label)" : "Users · \(content.sort.label) · “\(content.search)”"
        if !content.filter.isEmpty { title += " · \(content.filter)" }
        return title
    }

    private static func drawPosition(of content: ListContent, in rect: Rect, on canvas: any Canvas) {
        let positionWidth = positionColumns(content)
        if rect.width > positionWidth + 6 {
            canvas.draw(positionText(content), at: Point(row: rect.row, column: rect.right - positionWidth - 2), style: .accent)
        }
    }

    static func positionText(_ content: ListContent) -> String {
        Format.position(selected: content.selectedIndex, total: content.total, isLowerBound: content.totalIsLowerBound, empty: " 0 / 0 ")
    }

    /// The columns `positionText(content)` takes, without writing it.
    static func positionColumns(_ content: ListContent) -> Int {
        Format.positionColumns(selected: content.selectedIndex, total: content.total, isLowerBound: content.totalIsLowerBound, empty: " 0 / 0 ")
    }

    private static func drawTitles(_ columns: Columns, sort: SortContent, at point: Point, width: Int, on canvas: any Canvas) {
        func title(_ name: String, _ column: SortContent.Column) -> String {
            sort.column == column ? name + (sort.ascending ? " ↑" : " ↓") : name
        }
        let line = " " + TextWidth.fit(title("Name", .name), toColumns: columns.name) + " "
            + TextWidth.fit(title("Email", .email), toColumns: columns.email) + " "
            + (columns.role > 0 ? TextWidth.fit("Role", toColumns: columns.role) + " " : "") + "Status"
        canvas.drawPadded(line, at: point, width: width, style: .columnTitle)
    }

    /// Draws a row; with `markOnly` (the same row where it was, its selection or mark alone
    /// changed) only the cells those style: the marker and the name.
    private static func drawRow(
        _ row: ListRowContent, selected: Bool, marked: Bool, focused: Bool, columns: Columns, at point: Point, width: Int, on canvas: any Canvas,
        markOnly: Bool = false
    ) {
        switch row {
        case .user(let user):
            // The selection marks the marker and the name, not the whole row: moving it then
            // rewrites two short cells instead of two full lines, which is what a keypress
            // costs on a slow link (nnn does the same).
            // A marked row shows "*" in the marker's column (and its name in the mark's style):
            // one column, so it fits any width, and a character, so it shows without colour.
            let mark: Style = selected ? (focused ? .selected : .selectedInactive) : marked ? .marked : .normal
            var column = point.column
            func cell(_ text: String, _ width: Int, _ style: Style) {
                canvas.drawPadded(text, at: Point(row: point.row, column: column), width: width, style: style)
                column += width
            }
            // The marker is one of three one-column characters of ours: a line of one cell.
            canvas.drawLine(marked ? "*" : selected ? "▌" : " ", from: point, length: 1, axis: .across, style: mark)
            column += 1
            // The rest looks the same selected or not: a move restyles two names, and draws
            // neither them nor the rest of the lines again (make bench: the cells a j sends to
            // ncurses halve).
            if markOnly { return canvas.restyle(from: Point(row: point.row, column: column), width: columns.name, style: mark) }
            func gap() {
                canvas.fill(Point(row: point.row, column: column), width: 1, style: .normal)
                column += 1
            }
            cell(user.name, columns.name, mark)
            gap()
            cell(user.email, columns.email, .normal)
            gap()
            if columns.role > 0 {
                cell(user.role, columns.role, roleStyle(isAdmin: user.isAdmin))
                gap()
            }
            cell(user.status, max(0, point.column + width - column), statusStyle(user.statusTone))
        case .placeholder:
            canvas.drawPadded(" " + String(repeating: "·", count: min(columns.name - 2, 12)), at: point, width: width,
                              style: selected ? .selectedInactive : .placeholder)
        case .failed(let message, let isFirstOfPage):
            let text = isFirstOfPage ? " ✗ \(message) Press r to retry." : " ✗"
            canvas.drawPadded(text, at: point, width: width, style: selected ? .selectedInactive : .error)
        }
    }

    static func roleStyle(isAdmin: Bool) -> Style {
        isAdmin ? .roleAdmin : .normal
    }

    static func statusStyle(_ tone: StatusTone) -> Style {
        switch tone {
        case .active: .statusActive
        case .suspended: .statusSuspended
        case .invited: .statusInvited
        case .unknown: .dim
        }
    }
}
