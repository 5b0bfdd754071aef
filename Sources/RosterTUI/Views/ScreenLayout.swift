/// Where each part of the screen goes for a terminal size.
///
/// Row 0 is the header, the last row the hint bar, the one above it the status/search line.
/// The list and the detail pane share the rest: side by side from 100 columns, the detail
/// pane below the list on narrower terminals.
public struct ScreenLayout: Equatable, Sendable {
    public static let minimumSize = Size(columns: 60, rows: 15)
    public static let sideBySideMinimumColumns = 100
    /// Rows of the detail pane (border included) when it sits below the list.
    public static let detailBelowHeight = 8

    public var size: Size
    public var header: Rect
    public var list: Rect
    public var detail: Rect
    public var detailBeside: Bool
    public var status: Rect
    public var hints: Rect
    /// The area dialogs, forms and help are centred in.
    public var body: Rect

    /// nil when the terminal is smaller than `minimumSize`.
    public init?(size: Size) {
        guard size.columns >= Self.minimumSize.columns, size.rows >= Self.minimumSize.rows else { return nil }
        self.size = size
        header = Rect(row: 0, column: 0, width: size.columns, height: 1)
        hints = Rect(row: size.rows - 1, column: 0, width: size.columns, height: 1)
        status = Rect(row: size.rows - 2, column: 0, width: size.columns, height: 1)
        body = Rect(row: 1, column: 0, width: size.columns, height: size.rows - 3)
        detailBeside = size.columns >= Self.sideBySideMinimumColumns
        if detailBeside {
            let detailWidth = max(38, size.columns * 3 / 10)
            list = Rect(row: body.row, column: 0, width: size.columns - detailWidth, height: body.height)
            detail = Rect(row: body.row, column: list.right, width: detailWidth, height: body.height)
        } else {
            let detailHeight = Self.detailBelowHeight
            list = Rect(row: body.row, column: 0, width: size.columns, height: body.height - detailHeight)
            detail = Rect(row: list.bottom, column: 0, width: size.columns, height: detailHeight)
        }
    }

    /// How many user rows the list shows (inside its border, below the column titles).
    public var visibleRows: Int { max(1, list.height - 3) }

    /// A box of at most `width`×`height` centred in the body.
    public func centered(width: Int, height: Int) -> Rect {
        let width = min(width, body.width - 2)
        let height = min(height, body.height)
        return Rect(row: body.row + (body.height - height) / 2, column: (body.width - width) / 2, width: width, height: height)
    }
}

/// Braille spinner frames: one advance per tick, about ten ticks a second.
public enum SpinnerFrames {
    public static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    public static func frame(_ tick: Int) -> String {
        frames[((tick % frames.count) + frames.count) % frames.count]
    }
}
