/// Shown instead of everything else when the terminal is below the minimum size.
@MainActor
public enum TooSmallView {
    public static func draw(size: Size, on canvas: any Canvas) {
        let minimum = ScreenLayout.minimumSize
        let lines = [
            "Terminal too small",
            "\(size.columns)×\(size.rows); Roster needs \(minimum.columns)×\(minimum.rows).",
            "Enlarge the window, or press q to quit.",
        ]
        let top = max(0, (size.rows - lines.count) / 2)
        for (offset, line) in lines.enumerated() where top + offset < size.rows {
            let width = min(TextWidth.columns(of: line), size.columns)
            canvas.draw(line, at: Point(row: top + offset, column: max(0, (size.columns - width) / 2)),
                        style: offset == 0 ? .error : .normal, maxColumns: size.columns)
        }
    }
}
