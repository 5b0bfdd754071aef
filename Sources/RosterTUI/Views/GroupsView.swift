/// The groups view: a pane of groups (name, member count) on the left, the selected group's
/// members (name, email) on the right, side by side at every width Roster runs at. The pane
/// with the keys has the bright border and the bright selection.
@MainActor
public enum GroupsView {
    /// The groups pane's width in a body `width` columns wide: the members get the rest.
    static func groupsWidth(of width: Int) -> Int {
        min(44, max(26, width * 2 / 5))
    }

    /// Rows each pane shows (inside its border, below the column titles).
    public static func visibleRows(in layout: ScreenLayout) -> Int {
        max(1, layout.body.height - 3)
    }

    public static func draw(_ content: GroupsContent, in body: Rect, on canvas: any Canvas) {
        draw(content, replacing: nil, in: body, on: canvas)
    }

    /// Draws the view over `previous`, what the same body shows now (nil: draw it whole). A pane
    /// that did not change is not drawn; one whose selection alone moved redraws the two rows
    /// and its position, as the user list does.
    static func draw(_ content: GroupsContent, replacing previous: GroupsContent?, in body: Rect, on canvas: any Canvas) {
        let left = Rect(row: body.row, column: body.column, width: groupsWidth(of: body.width), height: body.height)
        let right = Rect(row: body.row, column: left.right, width: body.width - left.width, height: body.height)
        let previous = previous.flatMap { $0.focused == content.focused && $0.membersFocused == content.membersFocused ? $0 : nil }
        if content.groups != previous?.groups {
            drawGroups(content.groups, replacing: previous?.groups, focused: content.focused && !content.membersFocused, in: left, on: canvas)
        }
        if content.members != previous?.members {
            drawMembers(content.members, replacing: previous?.members, focused: content.focused && content.membersFocused, in: right, on: canvas)
        }
    }

    static func drawGroups(
        _ pane: GroupsContent.Pane<GroupsContent.GroupRow>, replacing previous: GroupsContent.Pane<GroupsContent.GroupRow>? = nil,
        focused: Bool, in rect: Rect, on canvas: any Canvas
    ) {
        let countWidth = 8
        drawPane(pane, replacing: previous, focused: focused, in: rect, on: canvas, titles: { width in
            TextWidth.fit(" Name", toColumns: width - countWidth) + TextWidth.fit("Members", toColumns: countWidth)
        }) { group, selected, point, width, selectionOnly in
            let count = Format.count(group.memberCount)
            let nameWidth = max(1, width - countWidth - 1)
            let name = Point(row: point.row, column: point.column + 1)
            if selectionOnly { return canvas.restyle(from: name, width: nameWidth, style: selected) }
            canvas.drawPadded(group.name, at: name, width: nameWidth, style: selected)
            let countText = String(repeating: " ", count: max(0, countWidth - TextWidth.columns(of: count))) + count
            canvas.drawPadded(countText, at: Point(row: point.row, column: point.column + 1 + nameWidth), width: width - 1 - nameWidth, style: .dim)
        }
    }

    static func drawMembers(
        _ pane: GroupsContent.Pane<GroupsContent.MemberRow>, replacing previous: GroupsContent.Pane<GroupsContent.MemberRow>? = nil,
        focused: Bool, in rect: Rect, on canvas: any Canvas
    ) {
        drawPane(pane, replacing: previous, focused: focused, in: rect, on: canvas, titles: { width in
            let nameWidth = (width - 1) * 9 / 20
            return TextWidth.fit(" Name", toColumns: nameWidth + 1) + " Email"
        }) { member, selected, point, width, selectionOnly in
            let nameWidth = (width - 1) * 9 / 20
            let name = Point(row: point.row, column: point.column + 1)
            if selectionOnly { return canvas.restyle(from: name, width: nameWidth, style: selected) }
            canvas.drawPadded(member.name, at: name, width: nameWidth, style: selected)
            canvas.drawPadded(" " + member.email, at: Point(row: point.row, column: point.column + 1 + nameWidth),
                              width: max(0, width - 1 - nameWidth), style: .normal)
        }
    }

    /// A box with the title and position in its top edge, column titles, the rows (each drawn
    /// by `row` after the selection marker; told when only the cells the selection styles need
    /// drawing), or the message centred when there are none.
    private static func drawPane<Row>(
        _ pane: GroupsContent.Pane<Row>, replacing previous: GroupsContent.Pane<Row>?, focused: Bool, in rect: Rect, on canvas: any Canvas,
        titles: (Int) -> String, row: (Row, Style, Point, Int, Bool) -> Void
    ) {
        let position = positionText(pane)
        let positionWidth = positionColumns(pane)
        let showsPosition = rect.width > positionWidth + TextWidth.columns(of: pane.title) + 8
        let inner = rect.inset(by: 1)
        let rowsArea = Rect(row: inner.row + 1, column: inner.column, width: inner.width, height: inner.height - 1)
        func drawRow(at offset: Int, selectionOnly: Bool = false) {
            guard offset >= 0, offset < pane.rows.count, offset < rowsArea.height else { return }
            let point = Point(row: rowsArea.row + offset, column: rowsArea.column)
            let isSelected = pane.firstIndex + offset == pane.selectedIndex
            let mark: Style = isSelected ? (focused ? .selected : .selectedInactive) : .normal
            canvas.drawLine(isSelected ? "▌" : " ", from: point, length: 1, axis: .across, style: mark)
            row(pane.rows[offset], mark, point, rowsArea.width, selectionOnly)
        }
        if let previous, inner.height >= 2, inner.width >= 6, !pane.rows.isEmpty, previous.selectingOtherRow(of: pane),
           positionColumns(previous) == positionWidth {
            // Only the selection moved: its old and new rows, and the position over the same cells.
            if showsPosition { canvas.draw(position, at: Point(row: rect.row, column: rect.right - positionWidth - 2), style: .accent) }
            for index in [previous.selectedIndex, pane.selectedIndex].compactMap({ $0 }) {
                drawRow(at: index - pane.firstIndex, selectionOnly: true)
            }
            return
        }
        // What the box, the titles and the rows (each padded to the pane's width) draw is not
        // cleared first: a PageDown redraws a pane whole, and clearing it was a quarter of that.
        guard rect.width >= 2, rect.height >= 2 else { return canvas.fill(rect, style: .normal) }
        canvas.drawBox(rect, title: pane.title, style: focused ? .border : .dim)
        if showsPosition {
            canvas.draw(position, at: Point(row: rect.row, column: rect.right - positionWidth - 2), style: .accent)
        }
        guard inner.height >= 2, inner.width >= 6 else { return canvas.fill(inner, style: .normal) }
        canvas.drawPadded(titles(inner.width), at: Point(row: inner.row, column: inner.column), width: inner.width, style: .columnTitle)
        let rowsDrawn = min(pane.rows.count, rowsArea.height)
        canvas.fill(Rect(row: rowsArea.row + rowsDrawn, column: rowsArea.column, width: rowsArea.width, height: rowsArea.height - rowsDrawn),
                    style: .normal)
        if pane.rows.isEmpty {
            if let message = pane.message {
                let lines = TextWrap.lines(message, width: max(1, rowsArea.width - 2))
                let start = rowsArea.row + max(0, (rowsArea.height - lines.count) / 2)
                for (offset, line) in lines.enumerated() where start + offset < rowsArea.bottom {
                    let width = min(TextWidth.columns(of: line), rowsArea.width)
                    canvas.draw(line, at: Point(row: start + offset, column: rowsArea.column + (rowsArea.width - width) / 2),
                                style: .dim, maxColumns: rowsArea.width)
                }
            }
            return
        }
        for offset in pane.rows.indices { drawRow(at: offset) }
        if let problem = pane.problem, pane.rows.count < rowsArea.height {
            canvas.draw(" ✗ \(problem) Press r to retry.", at: Point(row: rowsArea.row + pane.rows.count, column: rowsArea.column),
                        style: .error, maxColumns: rowsArea.width)
        }
    }

    static func positionText<Row>(_ pane: GroupsContent.Pane<Row>) -> String {
        Format.position(selected: pane.selectedIndex, total: pane.total, isLowerBound: pane.totalIsLowerBound, empty: " 0 ")
    }

    /// The columns `positionText(pane)` takes, without writing it.
    static func positionColumns<Row>(_ pane: GroupsContent.Pane<Row>) -> Int {
        Format.positionColumns(selected: pane.selectedIndex, total: pane.total, isLowerBound: pane.totalIsLowerBound, empty: " 0 ")
    }
}

extension GroupsContent.Pane {
    /// Whether `other` is this pane with only the selection moved: the same rows in the same place.
    func selectingOtherRow(of other: Self) -> Bool {
        title == other.title && firstIndex == other.firstIndex && total == other.total
            && totalIsLowerBound == other.totalIsLowerBound && message == other.message && problem == other.problem
            && rows == other.rows
    }
}
