import CNCursesW

/// The canvas on the real terminal: draws into ncurses' standard screen. Nothing reaches the
/// terminal until `Terminal.present()`, and then ncurses sends only the cells that changed.
@MainActor
public final class CursesCanvas: Canvas {
    public private(set) var size: Size
    private var attributes: [Style: attr_t]
    /// The theme without a connection's header colour, and whether the terminal has colours:
    /// what a header colour set at run time is applied to.
    private let theme: Theme
    private let colorsAvailable: Bool
    private var cursorVisible = false
    private var buffer: [wchar_t] = []

    init(size: Size, theme: Theme, headerColor: Theme.Color?, colorsAvailable: Bool) {
        self.size = size
        self.theme = theme
        self.colorsAvailable = colorsAvailable
        self.attributes = theme.withHeader(on: headerColor).makeAttributes(colorsAvailable: colorsAvailable)
    }

    public func setHeaderColor(_ color: Theme.Color?) {
        // The colour pairs are allocated anew; the frame after a switch is drawn whole.
        attributes = theme.withHeader(on: color).makeAttributes(colorsAvailable: colorsAvailable)
    }

    func updateSize(_ size: Size) {
        self.size = size
    }

    public func clear() {
        _ = roster_wattrset(roster_stdscr(), attributes[.normal] ?? roster_a_normal())
        werase(roster_stdscr())
    }

    @discardableResult
    public func draw(_ text: String, at point: Point, style: Style, maxColumns: Int?) -> Int {
        guard point.row >= 0, point.row < size.rows, point.column >= 0, point.column < size.columns else { return 0 }
        let prepared = CanvasText.prepare(text, column: point.column, maxColumns: maxColumns, screenColumns: size.columns)
        guard !prepared.isEmpty else { return 0 }
        // The characters go into a local array (the reused buffer, moved out and back): appending
        // to the stored property checks exclusive access at every character.
        var characters: [wchar_t] = []
        swap(&characters, &buffer)
        characters.removeAll(keepingCapacity: true)
        for scalar in prepared.unicodeScalars { characters.append(wchar_t(bitPattern: scalar.value)) }
        _ = roster_wattrset(roster_stdscr(), attributes[style] ?? roster_a_normal())
        characters.withUnsafeBufferPointer { pointer in
            _ = mvwaddnwstr(roster_stdscr(), Int32(point.row), Int32(point.column), pointer.baseAddress, Int32(pointer.count))
        }
        swap(&characters, &buffer)
        return TextWidth.columns(of: prepared)
    }

    public func drawLine(_ character: Character, from point: Point, length: Int, axis: LineAxis, style: Style) {
        guard let cells = LineCells(from: point, length: length, axis: axis, in: size),
              let scalar = character.unicodeScalars.first else { return }
        _ = roster_draw_line(roster_stdscr(), Int32(cells.start.row), Int32(cells.start.column), attributes[style] ?? roster_a_normal(),
                             wchar_t(bitPattern: scalar.value), Int32(cells.count), axis == .down ? 1 : 0)
    }

    public func restyle(from point: Point, width: Int, style: Style) {
        guard let cells = LineCells(from: point, length: width, axis: .across, in: size) else { return }
        _ = roster_restyle(roster_stdscr(), Int32(cells.start.row), Int32(cells.start.column), Int32(cells.count),
                           attributes[style] ?? roster_a_normal())
    }

    public func setCursor(_ point: Point?) {
        cursor = point
    }

    /// Where the text cursor should be when the screen is sent; nil hides it.
    private(set) var cursor: Point?

    /// Applies the cursor just before the screen is sent. A hidden cursor is left wherever
    /// drawing ended (`leaveok`), which saves the bytes of moving it on every frame.
    func applyCursor() {
        if let cursor {
            if !cursorVisible {
                curs_set(1)
                cursorVisible = true
            }
            leaveok(roster_stdscr(), false)
            wmove(roster_stdscr(), Int32(cursor.row), Int32(cursor.column))
        } else {
            if cursorVisible {
                curs_set(0)
                cursorVisible = false
            }
            leaveok(roster_stdscr(), true)
        }
    }
}
