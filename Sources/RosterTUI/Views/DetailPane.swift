/// The selected user's record. Beside the list it shows one field per line; below the list
/// (narrow terminals) it packs the same fields into fewer lines.
@MainActor
public enum DetailPane {
    public static func draw(_ content: DetailContent?, spinner: String?, in rect: Rect, on canvas: any Canvas) {
        let title = content?.isRefreshing == true ? "Details \(spinner ?? "…")" : "Details"
        canvas.drawBox(rect, title: title, style: .dim)
        let inner = rect.inset(by: 1)
        guard inner.height >= 1, inner.width >= 4 else { return }
        guard let content else {
            canvas.draw(" No user selected", at: Point(row: inner.row, column: inner.column), style: .dim, maxColumns: inner.width)
            return
        }
        let user = content.user
        var lines: [(label: String, value: String, style: Style)]
        if inner.height >= 9 {
            lines = [
                ("", user.name, .bold),
                ("", "", .normal),
                ("Email", user.email, .normal),
                ("Role", user.role, UserListView.roleStyle(isAdmin: user.isAdmin)),
                ("Status", user.status, UserListView.statusStyle(user.statusTone)),
                ("Id", content.id, .dim),
                ("Created", content.created, .normal),
                ("Updated", content.updated, .normal),
            ]
            if !content.showsRole { lines.removeAll { $0.label == "Role" } }
        } else {
            lines = [
                ("", user.name, .bold),
                ("Email", user.email, .normal),
                content.showsRole ? ("Role", "\(user.role) · \(user.status)", .normal)
                    : ("Status", user.status, UserListView.statusStyle(user.statusTone)),
                ("Id", content.id, .dim),
                ("Created", "\(content.created) · updated \(content.updated)", .normal),
            ]
        }
        for field in content.fields {
            lines.append((field.label, field.value, field.isDim ? .dim : .normal))
        }
        var row = inner.row
        for line in lines where row < inner.bottom {
            let point = Point(row: row, column: inner.column + 1)
            if line.label.isEmpty {
                canvas.draw(line.value, at: point, style: line.style, maxColumns: inner.width - 2)
            } else {
                canvas.draw(line.label, at: point, style: .dim, maxColumns: 9)
                canvas.draw(line.value, at: Point(row: row, column: inner.column + 10), style: line.style, maxColumns: inner.width - 11)
            }
            row += 1
        }
        if let problem = content.problem, row < inner.bottom {
            canvas.draw("✗ \(problem)", at: Point(row: inner.bottom - 1, column: inner.column + 1), style: .error, maxColumns: inner.width - 1)
        }
    }
}
