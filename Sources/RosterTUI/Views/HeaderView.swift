/// The top bar: app name, server, how many users, and whether the server answers.
@MainActor
public enum HeaderView {
    public static func draw(_ content: HeaderContent, in rect: Rect, on canvas: any Canvas) {
        canvas.fill(rect, style: .header)
        var left = " \(content.title)  ·  \(content.server)"
        if let count = content.userCount {
            let more = content.userCountIsLowerBound ? "+" : ""
            left += "  ·  \(Format.count(count))\(more) \(count == 1 && more.isEmpty ? "user" : "users")"
        }
        if let marked = content.marked {
            left += "  ·  \(marked)"
        }
        let right: String
        switch content.connection {
        case .connecting: right = "\(content.spinner ?? "…") connecting "
        case .connected: right = content.spinner.map { "\($0) loading " } ?? "● connected "
        case .unreachable: right = "✗ not answering "
        case .failing(let what): right = "✗ \(what) "
        }
        let rightWidth = TextWidth.columns(of: right)
        canvas.draw(left, at: Point(row: rect.row, column: rect.column), style: .header, maxColumns: rect.width - rightWidth - 1)
        canvas.draw(right, at: Point(row: rect.row, column: rect.right - rightWidth), style: .header)
    }
}
