import RosterKit

/// Moving the selection and the viewport. Each is O(1) plus the page bookkeeping of one screen.
extension UserListModel {
    public func moveDown(by rows: Int = 1) {
        move(to: selection + rows, direction: .down)
    }

    public func moveUp(by rows: Int = 1) {
        move(to: selection - rows, direction: .up)
    }

    /// One screen down: the selection and the viewport move together.
    public func pageDown() {
        move(to: selection + pageHeight, offset: scrollOffset + pageHeight, direction: .down)
    }

    public func pageUp() {
        move(to: selection - pageHeight, offset: scrollOffset - pageHeight, direction: .up)
    }

    public func moveToTop() {
        move(to: 0, offset: 0, direction: .up)
    }

    /// Jumps to the last row: asks for the last page directly, nothing in between.
    public func moveToBottom() {
        move(to: rowCount - 1, offset: rowCount - pageHeight, direction: .down)
    }

    /// Selects a row (a mouse click).
    public func select(row: Int) {
        move(to: row, direction: row >= selection ? .down : .up)
    }

    /// Moves the viewport (a mouse wheel); the selection follows only to stay on screen.
    public func scroll(by rows: Int) {
        guard rowCount > 0 else { return }
        let offset = min(max(0, scrollOffset + rows), max(0, rowCount - pageHeight))
        let target = min(max(selection, offset), offset + pageHeight - 1)
        move(to: target, offset: offset, direction: rows >= 0 ? .down : .up)
    }

    /// The view's height in rows, set on layout and resize.
    public func setViewportHeight(_ height: Int) {
        let height = max(0, height)
        guard height != viewportHeight else { return }
        viewportHeight = height
        guard rowCount > 0 else { return }
        set(selection: selection, offset: clampedOffset(scrollOffset, keeping: selection))
        loadVisiblePages()
    }

    func move(to target: Int, offset: Int? = nil, direction: PageWindow.Direction) {
        guard rowCount > 0 else { return }
        self.direction = direction
        let newSelection = min(max(0, target), rowCount - 1)
        set(selection: newSelection, offset: clampedOffset(offset ?? scrollOffset, keeping: newSelection))
        loadVisiblePages()
        if reportsSelectionAfterFrame { selectionReportPending = true } else { reportSelection() }
    }
}
