/// A position on the screen: row from the top, column from the left, both 0-based.
public struct Point: Sendable, Hashable {
    public var row: Int
    public var column: Int
    public init(row: Int, column: Int) {
        self.row = row
        self.column = column
    }
}

/// A width and height in cells.
public struct Size: Sendable, Hashable {
    public var columns: Int
    public var rows: Int
    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }
}

/// A rectangle of cells.
public struct Rect: Sendable, Hashable {
    public var row: Int
    public var column: Int
    public var width: Int
    public var height: Int

    public init(row: Int, column: Int, width: Int, height: Int) {
        self.row = row
        self.column = column
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public var bottom: Int { row + height }
    public var right: Int { column + width }
    public var isEmpty: Bool { width == 0 || height == 0 }

    public func contains(_ point: Point) -> Bool {
        point.row >= row && point.row < bottom && point.column >= column && point.column < right
    }

    /// The rectangle shrunk by `amount` cells on every side.
    public func inset(by amount: Int) -> Rect {
        Rect(row: row + amount, column: column + amount, width: width - 2 * amount, height: height - 2 * amount)
    }
}

/// Where views draw. The ncurses backend writes to the terminal; the grid backend keeps cells
/// in memory so tests can read the screen.
///
/// Every string is sanitised and measured in terminal columns by the canvas itself, so no
/// view can send a control character to the terminal or overrun a cell it was not given.
@MainActor
public protocol Canvas: AnyObject {
    var size: Size { get }
    /// Blanks the whole screen (in the normal style).
    func clear()
    /// Draws `text` from `point`, cut (with "…") to `maxColumns` and to the screen's edge.
    /// Returns the number of columns drawn.
    @discardableResult
    func draw(_ text: String, at point: Point, style: Style, maxColumns: Int?) -> Int
    /// Draws `length` copies of `character` from `point`, across or down, cut at the screen's
    /// edges: a fill (spaces) or a box's edge in one call. `character` is one column wide and
    /// printable (a space, a box-drawing line), never text from outside.
    func drawLine(_ character: Character, from point: Point, length: Int, axis: LineAxis, style: Style)
    /// Gives `width` cells from `point` (cut at the screen's edge) the style `style`, keeping
    /// what they show: a row whose selection alone moved is restyled, not drawn again.
    func restyle(from point: Point, width: Int, style: Style)
    /// Shows the text cursor at `point`, or hides it when nil.
    func setCursor(_ point: Point?)
    /// Puts the header on the connection's colour (nil: the theme's own); the next frame,
    /// drawn whole, shows it.
    func setHeaderColor(_ color: Theme.Color?)
}

/// Which way `Canvas.drawLine` goes from its first cell.
public enum LineAxis: Sendable {
    case across, down
}

extension Canvas {
    /// Fills `width` cells from `point` with spaces in `style`.
    public func fill(_ point: Point, width: Int, style: Style) {
        drawLine(" ", from: point, length: width, axis: .across, style: style)
    }

    @discardableResult
    public func draw(_ text: String, at point: Point, style: Style = .normal) -> Int {
        draw(text, at: point, style: style, maxColumns: nil)
    }

    /// Draws `text` padded (or cut) to exactly `width` columns.
    public func drawPadded(_ text: String, at point: Point, width: Int, style: Style) {
        guard width > 0 else { return }
        let used = draw(text, at: point, style: style, maxColumns: width)
        if used < width { fill(Point(row: point.row, column: point.column + used), width: width - used, style: style) }
    }

    /// Fills a whole rectangle.
    public func fill(_ rect: Rect, style: Style) {
        for row in rect.row..<rect.bottom {
            fill(Point(row: row, column: rect.column), width: rect.width, style: style)
        }
    }

    /// A single-line box around `rect` with an optional title in its top edge.
    public func drawBox(_ rect: Rect, title: String? = nil, style: Style = .border, titleStyle: Style = .dialogTitle) {
        guard rect.width >= 2, rect.height >= 2 else { return }
        drawTopEdge(of: rect, title: title, style: style, titleStyle: titleStyle)
        drawLine("│", from: Point(row: rect.row + 1, column: rect.column), length: rect.height - 2, axis: .down, style: style)
        drawLine("│", from: Point(row: rect.row + 1, column: rect.right - 1), length: rect.height - 2, axis: .down, style: style)
        drawEdge(row: rect.bottom - 1, of: rect, corners: ("└", "┘"), style: style)
    }

    /// The top line of `drawBox`, alone: what changes when only a box's title does.
    public func drawTopEdge(of rect: Rect, title: String? = nil, style: Style = .border, titleStyle: Style = .dialogTitle) {
        guard rect.width >= 2, rect.height >= 1 else { return }
        let inner = rect.width - 2
        drawEdge(row: rect.row, of: rect, corners: ("┌", "┐"), style: style)
        if let title, inner > 4 {
            draw(" \(title) ", at: Point(row: rect.row, column: rect.column + 2), style: titleStyle, maxColumns: inner - 2)
        }
    }

    private func drawEdge(row: Int, of rect: Rect, corners: (left: Character, right: Character), style: Style) {
        drawLine(corners.left, from: Point(row: row, column: rect.column), length: 1, axis: .across, style: style)
        drawLine("─", from: Point(row: row, column: rect.column + 1), length: rect.width - 2, axis: .across, style: style)
        drawLine(corners.right, from: Point(row: row, column: rect.right - 1), length: 1, axis: .across, style: style)
    }
}

/// Text prepared for a canvas: sanitised, then cut to fit the columns available.
enum CanvasText {
    static func prepare(_ text: String, column: Int, maxColumns: Int?, screenColumns: Int) -> String {
        let available = min(maxColumns ?? Int.max, screenColumns - column)
        guard available > 0 else { return "" }
        return TextWidth.truncate(Sanitizer.sanitize(text), toColumns: available)
    }
}

/// The cells of a `Canvas.drawLine` that are on the screen: where they start and how many.
struct LineCells {
    var start: Point
    var count: Int

    init?(from point: Point, length: Int, axis: LineAxis, in size: Size) {
        switch axis {
        case .across:
            guard point.row >= 0, point.row < size.rows else { return nil }
            let first = max(0, point.column), end = min(size.columns, point.column + length)
            guard first < end else { return nil }
            start = Point(row: point.row, column: first)
            count = end - first
        case .down:
            guard point.column >= 0, point.column < size.columns else { return nil }
            let first = max(0, point.row), end = min(size.rows, point.row + length)
            guard first < end else { return nil }
            start = Point(row: first, column: point.column)
            count = end - first
        }
    }
}
