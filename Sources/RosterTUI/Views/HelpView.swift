/// `?`: every key, by where it works, in a box over the screen.
@MainActor
public enum HelpView {
    public static func draw(_ sections: [HelpSection], layout: ScreenLayout, on canvas: any Canvas) {
        let keyWidth = 16
        let lineCount = sections.reduce(0) { $0 + $1.entries.count + 2 } + 1
        let rect = layout.centered(width: 76, height: lineCount + 2)
        canvas.fill(rect, style: .dialog)
        canvas.drawBox(rect, title: "Keys — press ? or Esc to close")
        var row = rect.row + 1
        let left = rect.column + 3
        for section in sections {
            guard row < rect.bottom - 1 else { break }
            canvas.draw(section.title, at: Point(row: row, column: left), style: .dialogTitle, maxColumns: rect.width - 6)
            row += 1
            for entry in section.entries where row < rect.bottom - 1 {
                canvas.draw(entry.key, at: Point(row: row, column: left + 1), style: .accent, maxColumns: keyWidth)
                canvas.draw(entry.label, at: Point(row: row, column: left + 2 + keyWidth), style: .normal, maxColumns: rect.right - 3 - (left + 2 + keyWidth))
                row += 1
            }
            row += 1
        }
    }
}
