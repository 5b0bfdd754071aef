import CNCursesW

/// The escape sequences terminals send for the editing and moving keys, beyond the one set
/// terminfo names for `TERM`. Inside tmux or screen, through a multiplexer or over SSH the
/// terminal in front of the person is often not the one `TERM` describes: tmux with
/// TERM=xterm-256color sends End as `ESC [4~`, which xterm's entry (`ESC O F`) does not know,
/// so ncurses passes its bytes on one by one and a form field fills with `[4~`. These are
/// taught to ncurses' own key tree (`define_key`, as htop does), so its escape timing and
/// partial reads keep working and `KeyDecoder` sees the usual key codes.
enum KeySequences {
    /// Every variant and the key code it means. A key with Shift, Alt or Ctrl (xterm's
    /// `;2`…`;8` parameter, rxvt's `$`, `^`, `@` endings and lower-case arrows) means the key
    /// itself: Roster binds no modified key, and the plain key is what the person reached for.
    static let variants: [(sequence: String, code: Int32)] = {
        var variants: [(String, Int32)] = []
        let escape = "\u{1B}"
        // Arrows, Home, End: CSI and SS3 forms (xterm's normal and application modes, VT100).
        let lettered: [(Character, Int32)] = [
            ("A", KEY_UP), ("B", KEY_DOWN), ("C", KEY_RIGHT), ("D", KEY_LEFT), ("H", KEY_HOME), ("F", KEY_END),
        ]
        for (letter, code) in lettered {
            variants.append((escape + "[\(letter)", code))
            variants.append((escape + "O\(letter)", code))
            for modifier in 2...8 {
                variants.append((escape + "[1;\(modifier)\(letter)", code))
                variants.append((escape + "O\(modifier)\(letter)", code))
            }
        }
        // rxvt's modified arrows: Shift `ESC [a`, Ctrl `ESC O a`.
        let lowerArrows: [(Character, Int32)] = [("a", KEY_UP), ("b", KEY_DOWN), ("c", KEY_RIGHT), ("d", KEY_LEFT)]
        for (letter, code) in lowerArrows {
            variants.append((escape + "[\(letter)", code))
            variants.append((escape + "O\(letter)", code))
        }
        // VT220 numbered keys: 1 and 7 Home (linux console, rxvt), 4 and 8 End, 2 Insert,
        // 3 Delete, 5 and 6 Page Up and Down; with xterm's modifiers and rxvt's endings.
        let numbered: [(Int, Int32)] = [
            (1, KEY_HOME), (7, KEY_HOME), (4, KEY_END), (8, KEY_END),
            (2, KEY_IC), (3, KEY_DC), (5, KEY_PPAGE), (6, KEY_NPAGE),
        ]
        for (number, code) in numbered {
            variants.append((escape + "[\(number)~", code))
            for modifier in 2...8 { variants.append((escape + "[\(number);\(modifier)~", code)) }
            for ending in ["$", "^", "@"] { variants.append((escape + "[\(number)\(ending)", code)) }
        }
        // F1 to F4: VT100 (`ESC O P`), VT220 and rxvt (`ESC [11~`), the linux console (`ESC [[A`).
        for (index, letter) in ["P", "Q", "R", "S"].enumerated() {
            let code = roster_key_f(Int32(index + 1))
            variants.append((escape + "O\(letter)", code))
            variants.append((escape + "[\(11 + index)~", code))
            variants.append((escape + "[[\(["A", "B", "C", "D"][index])", code))
        }
        variants.append((escape + "[Z", KEY_BTAB))
        variants.append((escape + "OM", KEY_ENTER))
        return variants
    }()

    /// Teaches ncurses every variant that terminfo left out or bound to a key Roster does not
    /// use (xterm's entry names Ctrl-Right `kRIT5`, a code of its own). A sequence terminfo
    /// binds to a key Roster knows keeps that meaning. Call after `keypad`.
    static func defineAll() {
        for (sequence, code) in variants {
            let existing = key_defined(sequence)
            if existing < 0 { continue }  // a prefix of a longer sequence terminfo knows
            if existing == 0 || isUnused(existing) { _ = define_key(sequence, code) }
        }
    }

    private static func isUnused(_ code: Int32) -> Bool {
        if case .unknown = KeyDecoder.functionKey(code) { return true }
        return false
    }
}
