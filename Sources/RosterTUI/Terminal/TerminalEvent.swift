/// A key the person pressed, decoded from ncurses.
public enum Key: Hashable, Sendable {
    /// A printable character (letters, digits, punctuation, any script).
    case character(Character)
    /// Ctrl plus a letter, given as the lowercase letter: Ctrl-B is `.control("b")`.
    case control(Character)
    case enter, escape, tab, backTab, backspace, delete
    case up, down, left, right, home, end, pageUp, pageDown, insert
    case function(Int)
    /// A key ncurses reported that Roster does not use.
    case unknown(Int32)
}

/// A mouse action at a screen position.
public struct MouseEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case press, release, click, doubleClick, wheelUp, wheelDown
    }
    public var kind: Kind
    public var point: Point

    public init(kind: Kind, point: Point) {
        self.kind = kind
        self.point = point
    }
}

/// Everything the terminal tells the app.
public enum TerminalEvent: Hashable, Sendable {
    case key(Key)
    case mouse(MouseEvent)
    case resize(Size)
    /// Ctrl-C, SIGTERM, SIGHUP, SIGQUIT: leave now, restoring the terminal.
    case quit(signal: Int32)
    /// Ctrl-Z: give the terminal back and stop until `fg`.
    case suspend
    /// Continued after a stop (fg): the screen must be drawn again from scratch.
    case resume
}

extension TerminalEvent {
    /// A key or a click: the person acting, whom background runs make way for.
    var isInput: Bool {
        switch self {
        case .key, .mouse: true
        default: false
        }
    }
}
