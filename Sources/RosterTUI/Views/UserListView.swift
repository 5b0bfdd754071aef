import RosterKit

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

        /// Splits `width` columns: role and status fixed, name and email share the rest.
        init(width: Int) {
            role = 7
            status = 9
            let flexible = max(10, width - 1 - role - status - 4)
            name = flexible * 9 / 20
            email = flexible - name
        }
    }

    public static func draw(_ content: ListContent, in rect: Rect, on canvas: any Canvas) {
        var title = "Users · \(content.sort.label)"
        if !content.search.isEmpty { title += " · “\(content.search)”" }
        canvas.drawBox(rect, title: title, style: content.focused ? .border : .dim)
        let position = positionText(content)
        let positionWidth = TextWidth.columns(of: position)
        if rect.width > positionWidth + 6 {
            canvas.draw(position, at: Point(row: rect.row, column: rect.right - positionWidth - 2), style: .accent)
        }

        let inner = rect.inset(by: 1)
        guard inner.height >= 2, inner.width >= 10 else { return }
        let columns = Columns(width: inner.width)
        drawTitles(columns, sort: content.sort, at: Point(row: inner.row, column: inner.column), width: inner.width, on: canvas)

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
        for (offset, row) in content.rows.prefix(rowsArea.height).enumerated() {
            let index = content.firstIndex + offset
            let point = Point(row: rowsArea.row + offset, column: rowsArea.column)
            let selected = index == content.selectedIndex
            drawRow(row, selected: selected, focused: content.focused, columns: columns, at: point, width: rowsArea.width, on: canvas)
        }
    }

    static func positionText(_ content: ListContent) -> String {
        guard let total = content.total else { return " … " }
        guard total > 0 else { return " 0 / 0 " }
        let position = (content.selectedIndex ?? 0) + 1
        return " \(Format.count(position)) / \(Format.count(total)) "
    }

    private static func drawTitles(_ columns: Columns, sort: UserSort, at point: Point, width: Int, on canvas: any Canvas) {
        func title(_ name: String, _ ascending: UserSort, _ descending: UserSort) -> String {
            sort == ascending ? name + " ↑" : sort == descending ? name + " ↓" : name
        }
        let line = " " + TextWidth.fit(title("Name", .name, .nameDescending), toColumns: columns.name) + " "
            + TextWidth.fit(title("Email", .email, .emailDescending), toColumns: columns.email) + " "
            + TextWidth.fit("Role", toColumns: columns.role) + " " + "Status"
        canvas.drawPadded(line, at: point, width: width, style: .columnTitle)
    }

    private static func drawRow(_ row: ListRowContent, selected: Bool, focused: Bool, columns: Columns, at point: Point, width: Int, on canvas: any Canvas) {
        switch row {
        case .user(let user):
            // The selection marks the marker and the name, not the whole row: moving it then
            // rewrites two short cells instead of two full lines, which is what a keypress
            // costs on a slow link (nnn does the same).
            let mark: Style = selected ? (focused ? .selected : .selectedInactive) : .normal
            var column = point.column
            func cell(_ text: String, _ width: Int, _ style: Style) {
                canvas.drawPadded(text, at: Point(row: point.row, column: column), width: width, style: style)
                column += width
            }
            cell(selected ? "▌" : " ", 1, mark)
            cell(user.name, columns.name, mark)
            cell(" ", 1, .normal)
            cell(user.email, columns.email, .normal)
            cell(" ", 1, .normal)
            cell(user.role.rawValue, columns.role, roleStyle(user.role))
            cell(" ", 1, .normal)
            cell(user.status.rawValue, max(0, point.column + width - column), statusStyle(user.status))
        case .placeholder:
            canvas.drawPadded(" " + String(repeating: "·", count: min(columns.name - 2, 12)), at: point, width: width,
                              style: selected ? .selectedInactive : .placeholder)
        case .failed(let message, let isFirstOfPage):
            let text = isFirstOfPage ? " ✗ \(message) Press r to retry." : " ✗"
            canvas.drawPadded(text, at: point, width: width, style: selected ? .selectedInactive : .error)
        }
    }

    static func roleStyle(_ role: Role) -> Style {
        role == .admin ? .roleAdmin : .normal
    }

    static func statusStyle(_ status: Status) -> Style {
        switch status {
        case .active: .statusActive
        case .suspended: .statusSuspended
        case .invited: .statusInvited
        case .unknown: .dim
        }
    }
}
