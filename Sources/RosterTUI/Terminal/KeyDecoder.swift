import CNCursesW

/// Turns what `wget_wch` returns into `Key`s.
enum KeyDecoder {
    static func character(_ code: UInt32) -> Key {
        switch code {
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        case 1...26: return .control(Character(Unicode.Scalar(code + 96)!))
        case 0: return .control(" ")
        default:
            guard let scalar = Unicode.Scalar(code) else { return .unknown(Int32(bitPattern: code)) }
            return .character(Character(scalar))
        }
    }

    static func functionKey(_ code: Int32) -> Key {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_IC: return .insert
        case KEY_DC: return .delete
        case KEY_BACKSPACE: return .backspace
        case KEY_BTAB: return .backTab
        case KEY_ENTER: return .enter
        case roster_key_f(1)...roster_key_f(12): return .function(Int(code - roster_key_f(0)))
        default: return .unknown(code)
        }
    }

    static func mouse(_ event: MEVENT) -> MouseEvent? {
        let point = Point(row: Int(event.y), column: Int(event.x))
        let state = event.bstate
        let kind: MouseEvent.Kind
        if state & roster_button4_pressed() != 0 {
            kind = .wheelUp
        } else if roster_button5_pressed() != 0 && state & roster_button5_pressed() != 0 {
            kind = .wheelDown
        } else if state & roster_button1_double_clicked() != 0 {
            kind = .doubleClick
        } else if state & roster_button1_clicked() != 0 {
            kind = .click
        } else if state & roster_button1_pressed() != 0 {
            kind = .press
        } else if state & roster_button1_released() != 0 {
            kind = .release
        } else {
            return nil
        }
        return MouseEvent(kind: kind, point: point)
    }
}
