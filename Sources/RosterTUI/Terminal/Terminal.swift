import CNCursesW
import CTerminalGuard
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The real terminal: sets ncurses up, reads keys, sends frames, and gives the terminal back
/// in working order on every way out.
///
/// All ncurses calls happen here or in `CursesCanvas`, on the main actor, which is the main
/// thread: `MainLoop` waits there for input, signals and other work alike, and the main actor
/// then reads every pending key without blocking.
@MainActor
public final class Terminal {
    public enum ColorMode: String, Sendable, CaseIterable {
        /// Colours unless NO_COLOR is set or the terminal has none.
        case auto
        case always
        case never
    }

    public private(set) var size: Size
    public let canvas: CursesCanvas
    public let usesColor: Bool
    /// The read end of the pipe the signal handlers write each signal's number to.
    private let signalDescriptor: Int32
    private var active = true

    /// Throws, having written nothing to the terminal, when standard input or output is not a
    /// terminal or `TERM` names one that cannot move the cursor (dumb, or unknown to terminfo):
    /// there ncurses' `initscr` would end the process itself or leave a blank screen.
    public static func checkUsable(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw TerminalError.notATerminal }
        let addresses = roster_terminal_addresses_cursor(nil, STDOUT_FILENO)
        guard addresses == 1 else { throw TerminalError.cannotMoveCursor(term: environment["TERM"] ?? "", known: addresses == 0) }
    }

    /// Takes over the terminal. Throws when `checkUsable` does.
    public static func start(colorMode: ColorMode = .auto, mouse: Bool = true, headerColor: Theme.Color? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Terminal {
        try checkUsable(environment: environment)
        TextWidth.activateUTF8Locale()
        _ = roster_guard_save_terminal(STDIN_FILENO)

        var pipeDescriptors: [Int32] = [0, 0]
        guard pipe(&pipeDescriptors) == 0 else { throw TerminalError.setupFailed("pipe: \(String(cString: strerror(errno)))") }
        for descriptor in pipeDescriptors {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }

        // Our handlers go in before ncurses starts, so it installs none of its own: every
        // signal becomes an event. With SIGTSTP already handled, ncurses also stops ignoring
        // it around each screen update, two `sigaction` calls a frame.
        _ = roster_guard_forward_signals(pipeDescriptors[1])
        guard initscr() != nil else {
            roster_guard_stop_forwarding_signals()
            throw TerminalError.setupFailed("ncurses could not initialise the terminal (TERM=\(environment["TERM"] ?? "unset"))")
        }
        _ = roster_guard_install_crash_handlers()

        cbreak()
        noecho()
        nonl()
        keypad(roster_stdscr(), true)
        KeySequences.defineAll()
        nodelay(roster_stdscr(), true)
        intrflush(roster_stdscr(), false)
        set_escdelay(25)
        curs_set(0)
        leaveok(roster_stdscr(), true)

        let wantsColor: Bool
        switch colorMode {
        case .always: wantsColor = true
        case .never: wantsColor = false
        case .auto: wantsColor = (environment["NO_COLOR"] ?? "").isEmpty
        }
        var colorsAvailable = false
        if wantsColor && has_colors() {
            start_color()
            use_default_colors()
            colorsAvailable = true
        }
        let theme: Theme = wantsColor ? .color : .monochrome

        if mouse {
            let mask = roster_button1_pressed() | roster_button1_released() | roster_button1_clicked()
                | roster_button1_double_clicked() | roster_button4_pressed() | roster_button5_pressed()
            mousemask(mask, nil)
            mouseinterval(0)
        }

        // ncurses 6.4 flushes its output at every cursor move until the screen has been left
        // and entered once (`_endwin` is still "initial"): a j went out in four writes, each a
        // wake-up for the terminal. Leaving and entering now, before anything is drawn, makes
        // a frame one write. And keys are read before each frame, so ncurses need not poll
        // for typeahead while it writes one.
        endwin()
        doupdate()
        typeahead(-1)

        let size = Size(columns: Int(roster_cols()), rows: Int(roster_lines()))
        let terminal = Terminal(
            size: size, canvas: CursesCanvas(size: size, theme: theme, headerColor: headerColor, colorsAvailable: colorsAvailable), usesColor: colorsAvailable,
            signalDescriptor: pipeDescriptors[0])
        return terminal
    }

    private init(size: Size, canvas: CursesCanvas, usesColor: Bool, signalDescriptor: Int32) {
        self.size = size
        self.canvas = canvas
        self.usesColor = usesColor
        self.signalDescriptor = signalDescriptor
    }

    /// Why the terminal needs the app: keys are waiting, or a signal came.
    enum Wake: Sendable, Equatable {
        case input
        case signal(Int32)
    }

    /// Calls `wake` on the main thread, from `MainLoop`, whenever keys are waiting or a signal
    /// came, until `restore()`. A terminal that went away (SSH dropped) wakes it as SIGHUP.
    func onWake(_ wake: @escaping @MainActor (Wake) -> Void) {
        MainLoop.watch(STDIN_FILENO) { [signalDescriptor] events in
            if events & Int16(POLLIN) != 0 {
                wake(.input)
            } else if events & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
                MainLoop.unwatch(STDIN_FILENO)
                MainLoop.unwatch(signalDescriptor)
                wake(.signal(SIGHUP))
            }
        }
        MainLoop.watch(signalDescriptor) { [signalDescriptor] _ in
            var numbers = [UInt8](repeating: 0, count: 64)
            let count = read(signalDescriptor, &numbers, numbers.count)
            guard count > 0 else { return }
            for number in numbers[..<count] { wake(.signal(Int32(number))) }
        }
    }

    /// The events of one wake-up: every key waiting, or what a signal means.
    func events(for wake: Wake) -> [TerminalEvent] {
        switch wake {
        case .input:
            return readPendingKeys()
        case .signal(let number):
            switch number {
            case SIGWINCH: return [.resize(refreshSize())]
            case SIGTSTP: return [.suspend]
            case SIGCONT: return [.resume]
            default: return [.quit(signal: number)]
            }
        }
    }

    /// Reads every key waiting in the input, without blocking.
    private func readPendingKeys() -> [TerminalEvent] {
        var events: [TerminalEvent] = []
        var character: wint_t = 0
        while true {
            let status = wget_wch(roster_stdscr(), &character)
            if status == ERR { break }
            if status == KEY_CODE_YES {
                switch Int32(character) {
                case KEY_MOUSE:
                    var event = MEVENT()
                    if getmouse(&event) == OK, let mouse = KeyDecoder.mouse(event) { events.append(.mouse(mouse)) }
                case KEY_RESIZE:
                    // Queued by our own resizeterm (SIGWINCH below): ncurses has the new size
                    // already. Calling resizeterm again here would queue another, forever.
                    events.append(.resize(adoptCursesSize()))
                default:
                    events.append(.key(KeyDecoder.functionKey(Int32(character))))
                }
            } else {
                events.append(.key(KeyDecoder.character(UInt32(character))))
            }
        }
        return events
    }

    /// Asks the kernel for the window size and tells ncurses.
    private func refreshSize() -> Size {
        var window = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0,
           Int(window.ws_col) != Int(roster_cols()) || Int(window.ws_row) != Int(roster_lines()) {
            resizeterm(Int32(window.ws_row), Int32(window.ws_col))
        }
        return adoptCursesSize()
    }

    /// Takes ncurses' idea of the screen size as ours.
    private func adoptCursesSize() -> Size {
        size = Size(columns: Int(roster_cols()), rows: Int(roster_lines()))
        canvas.updateSize(size)
        return size
    }

    /// Sends what was drawn since the last frame: only the changed cells reach the terminal.
    public func present() {
        canvas.applyCursor()
        wnoutrefresh(roster_stdscr())
        doupdate()
    }

    /// Writes a sequence that draws nothing (OSC 52) straight to the terminal. ncurses has
    /// flushed its own output at the end of the last frame, so the two never interleave.
    public func send(_ bytes: [UInt8]) {
        guard active else { return }
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if result > 0 {
                written += result
            } else if result < 0, errno == EINTR || errno == EAGAIN {
                continue
            } else {
                break
            }
        }
    }

    /// The next `present()` redraws every cell (after a resume or when the screen was disturbed).
    public func invalidate() {
        clearok(roster_curscr(), true)
    }

    /// Gives the terminal back, stops the process (Ctrl-Z), and takes it again after `fg`.
    public func suspend() {
        endwin()
        roster_guard_suspend_self()
        // Continued: ncurses restores its modes on the next refresh.
        _ = refreshSize()
        invalidate()
    }

    /// Gives the terminal back: normal screen, cursor visible, modes as they were. Idempotent.
    public func restore() {
        guard active else { return }
        active = false
        mousemask(0, nil)
        endwin()
        MainLoop.unwatch(STDIN_FILENO)
        MainLoop.unwatch(signalDescriptor)
    }
}

public enum TerminalError: Error, CustomStringConvertible {
    case notATerminal
    /// TERM names a terminal without cursor addressing (`known`, e.g. dumb) or none terminfo has.
    case cannotMoveCursor(term: String, known: Bool)
    case setupFailed(String)

    public var description: String {
        switch self {
        case .notATerminal: "Roster needs a terminal: standard input and output must be a TTY."
        case .cannotMoveCursor(let term, let known):
            "Roster needs a terminal that can move the cursor; TERM=\(term.isEmpty ? "(unset)" : term) "
                + (known ? "cannot" : "is not in terminfo") + ". Run it in a terminal emulator or set TERM, e.g. TERM=xterm-256color."
        case .setupFailed(let detail): "Could not set up the terminal: \(detail)"
        }
    }
}
