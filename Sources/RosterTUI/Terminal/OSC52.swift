import Foundation

/// The clipboard escape sequence, OSC 52 (xterm's "manipulate selection data"): the terminal
/// puts the text on the system clipboard. It travels in the output stream, so it works over
/// SSH, where no clipboard program could.
public enum OSC52 {
    /// `ESC ] 52 ; c ; <base64> BEL`. The text goes as base64, so nothing in it (an ESC, a BEL,
    /// a C1 control) reaches the terminal raw.
    public static func sequence(copying text: String) -> [UInt8] {
        Array("\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}".utf8)
    }

    /// What to write for `text` in this environment. Inside tmux (`TMUX` set): the plain
    /// sequence, which tmux 3.x takes into a paste buffer and passes on to the outer terminal
    /// when `set-clipboard` is `on` (its default, `external`, ignores applications' OSC 52);
    /// then the same wrapped in tmux's DCS passthrough (`ESC P tmux; … ESC \`, each ESC
    /// doubled), which reaches the outer terminal directly where `allow-passthrough` is on
    /// (tmux 3.3+). Where neither is set, tmux drops both and nothing is shown.
    public static func sequences(copying text: String, environment: [String: String]) -> [UInt8] {
        let plain = sequence(copying: text)
        guard let tmux = environment["TMUX"], !tmux.isEmpty else { return plain }
        return plain + passthrough(plain)
    }

    /// tmux's DCS passthrough of `sequence`.
    static func passthrough(_ sequence: [UInt8]) -> [UInt8] {
        var wrapped = Array("\u{1B}Ptmux;".utf8)
        for byte in sequence {
            if byte == 0x1B { wrapped.append(0x1B) }
            wrapped.append(byte)
        }
        return wrapped + [0x1B, 0x5C]
    }
}
