/// An in-memory canvas: a grid of cells, each with its text and style. Tests draw into it and
/// read the screen back as lines of text, or the style of any cell.
@MainActor
public final class GridCanvas: Canvas {
    public struct Cell: Equatable, Sendable {
        /// The character drawn here; "" for the second column of a wide character.
        public var text: String
        public var style: Style
        public static let blank = Cell(text: " ", style: .normal)
    }

    public private(set) var size: Size
    public private(set) var cells: [[Cell]]
    public private(set) var cursor: Point?
    /// The header's colour last set (the connection on screen's).
    public private(set) var headerColor: Theme.Color?
    /// Cells written on each line since `forgetWrites()` (a clear writes every cell): what
    /// frames touched, for the tests that hold a key to the lines it changes.
    public private(set) var writes: [Int: Int] = [:]

    public func forgetWrites() {
        writes = [:]
    }

    public init(columns: Int, rows: Int) {
        size = Size(columns: columns, rows: rows)
        cells = Array(repeating: Array(repeating: .blank, count: columns), count: rows)
    }

    public func resize(columns: Int, rows: Int) {
        size = Size(columns: columns, rows: rows)
        cells = Array(repeating: Array(repeating: .blank, count: columns), count: rows)
    }

    public func setHeaderColor(_ color: Theme.Color?) {
        headerColor = color
    }

    public func clear() {
        for row in cells.indices { writes[row, default: 0] += size.columns }
        for row in cells.indices {
            for column in cells[row].indices { cells[row][column] = .blank }
        }
    }

    @discardableResult
    public func draw(_ text: String, at point: Point, style: Style, maxColumns: Int?) -> Int {
        guard point.row >= 0, point.row < size.rows, point.column >= 0 else { return 0 }
        let prepared = CanvasText.prepare(text, column: point.column, maxColumns: maxColumns, screenColumns: size.columns)
        var column = point.column
        for character in prepared {
            let width = character.unicodeScalars.reduce(0) { $0 + TextWidth.columns(of: $1) }
            if width == 0 {
                // A combining sequence the cluster logic kept apart: attach to the previous cell.
                if column > point.column { cells[point.row][column - 1].text.append(contentsOf: String(character)) }
                continue
            }
            cells[point.row][column] = Cell(text: String(character), style: style)
            for extra in 1..<width where column + extra < size.columns {
                cells[point.row][column + extra] = Cell(text: "", style: style)
            }
            column += width
        }
        writes[point.row, default: 0] += column - point.column
        return column - point.column
    }

    public func drawLine(_ character: Character, from point: Point, length: Int, axis: LineAxis, style: Style) {
        guard let line = LineCells(from: point, length: length, axis: axis, in: size) else { return }
        let cell = Cell(text: String(character), style: style)
        for index in 0..<line.count {
            switch axis {
            case .across:
                cells[line.start.row][line.start.column + index] = cell
                writes[line.start.row, default: 0] += 1
            case .down:
                cells[line.start.row + index][line.start.column] = cell
                writes[line.start.row + index, default: 0] += 1
            }
        }
    }

    public func restyle(from point: Point, width: Int, style: Style) {
        guard let line = LineCells(from: point, length: width, axis: .across, in: size) else { return }
        for column in line.start.column..<line.start.column + line.count { cells[line.start.row][column].style = style }
        writes[line.start.row, default: 0] += line.count
    }

    public func setCursor(_ point: Point?) {
        cursor = point
    }

    // MARK: Reading the screen

    /// Row `row` as text (wide characters once, trailing spaces kept).
    public func line(_ row: Int) -> String {
        cells[row].map(\.text).joined()
    }

    /// Every row as text, trailing spaces removed.
    public var lines: [String] {
        cells.indices.map { line($0).trimmingTrailingSpaces() }
    }

    /// The whole screen as one string, rows separated by newlines.
    public var text: String { lines.joined(separator: "\n") }

    public func style(at point: Point) -> Style {
        cells[point.row][point.column].style
    }

    /// The first position where `needle` appears on screen, by row then column (in cells).
    public func find(_ needle: String) -> Point? {
        for row in cells.indices {
            let texts = cells[row].map(\.text)
            for column in texts.indices where texts[column...].joined().hasPrefix(needle) {
                return Point(row: row, column: column)
            }
        }
        return nil
    }

    /// The display column where `needle` starts on `row`, if present.
    public func column(of needle: String, inRow row: Int) -> Int? {
        let texts = cells[row].map(\.text)
        return texts.indices.first { texts[$0...].joined().hasPrefix(needle) }
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
