/// The user list's keys, acting only when the list is on top and nothing is typed over it.
extension AppModel {
    public func setListViewport(height: Int) { list.setViewportHeight(height) }
    public func moveDown() { if listOnTop { list.moveDown() } }
    public func moveUp() { if listOnTop { list.moveUp() } }
    public func pageDown() { if listOnTop { list.pageDown() } }
    public func pageUp() { if listOnTop { list.pageUp() } }
    public func moveToTop() { if listOnTop { list.moveToTop() } }
    public func moveToBottom() { if listOnTop { list.moveToBottom() } }
    public func select(row: Int) { if listOnTop { list.select(row: row) } }
    public func scroll(by rows: Int) { if listOnTop { list.scroll(by: rows) } }
    /// A key's frame is out: what waited for it (the detail pane told of the selection) runs.
    public func frameSent() { list.reportPendingSelection() }

    public func cycleSort() {
        guard listIdle else { return }
        guard traits.canSort else {
            showStatus("This server cannot sort: the list is in its own order", kind: .warning)
            return
        }
        list.cycleSort(includingDirectoryOrder: offersDirectoryOrder)
    }

    /// Whether the sort key's cycle comes back to the directory's own order: on LDAP and SCIM,
    /// whose own order is not a sorted one. roster-server's own order is name ↑, already in it.
    var offersDirectoryOrder: Bool { traits.dialect != .roster }
    public func refresh() {
        guard listIdle else { return }
        if mainView == .groups { groupsView.refresh() } else { list.refresh() }
    }

    var listOnTop: Bool { screens.count == 1 }
    /// The list is on top and no line is being typed.
    var listIdle: Bool { listOnTop && line == nil }
}
