/// `?`: every key, by where it works, in a box over the screen. Two columns when the terminal
/// is wide enough; otherwise one, scrolled with j/k when it does not fit.
@MainActor
public enum HelpView {
    static let keyWidth = 20
    static let columnWidth = 56

    enum Line: Equatable {
        case title(String)
        case entry(Hint)
        case blank
    }

    static func lines(_ sections: [HelpSection]) -> [Line] {
        var lines: [Line] = []
        for section in sections {
            if !lines.isEmpty { lines.append(.blank) }
            lines.append(.title(section.title))
            lines += section.entries.map(Line.entry)
        }
        return lines
    }

    /// The sections split into columns of about equal length, whole sections each.
    static func columns(_ sections: [HelpSection], count: Int) -> [[Line]] {
        guard count > 1, sections.count > 1 else { return [lines(sections)] }
        let total = lines(sections).count
        var split = 1
        while split < sections.count - 1 && lines(Array(sections[..<split])).count < total / 2 { split += 1 }
        return [lines(Array(sections[..<split])), lines(Array(sections[split...]))]
    }

    /// Draws the help scrolled by `scroll` lines and returns the largest useful scroll.
    @discardableResult
    public static func draw(_ sections: [HelpSection], scroll: Int = 0, layout: ScreenLayout, on canvas: any Canvas) -> Int {
        let columnCount = layout.body.width >= 2 * columnWidth + 6 ? 2 : 1
        let columns = columns(sections, count: columnCount)
        let tallest = columns.map(\.count).max() ?? 0
        let width = columnCount == 2 ? 2 * columnWidth + 5 : min(columnWidth + 6, layout.body.width - 2)
        let rect = layout.centered(width: width, height: tallest + 2)
        let visible = max(1, rect.height - 2)
        let maximumScroll = max(0, tallest - visible)
        let scroll = min(max(0, scroll), maximumScroll)

        canvas.fill(rect, style: .dialog)
        let more = maximumScroll > 0 ? " — j/k to scroll" : ""
        canvas.drawBox(rect, title: "Keys — ? or Esc to close\(more)")
        for (index, column) in columns.enumerated() {
            let left = rect.column + 2 + index * (columnWidth + 1)
            let textWidth = min(columnWidth, rect.right - 2 - left)
            for (offset, line) in column.dropFirst(scroll).prefix(visible).enumerated() {
                let row = rect.row + 1 + offset
                switch line {
                case .title(let title):
                    canvas.draw(title, at: Point(row: row, column: left), style: .dialogTitle, maxColumns: textWidth)
                case .entry(let hint):
                    canvas.draw(hint.key, at: Point(row: row, column: left + 1), style: .accent, maxColumns: keyWidth)
                    canvas.draw(hint.label, at: Point(row: row, column: left + 2 + keyWidth), style: .normal, maxColumns: textWidth - keyWidth - 2)
                case .blank:
                    break
                }
            }
        }
        if scroll < maximumScroll {
            canvas.draw(" ↓ more ", at: Point(row: rect.bottom - 1, column: rect.right - 10), style: .accent)
        }
        return maximumScroll
    }
}
