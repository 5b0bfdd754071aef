import Foundation
import RosterApp
import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterTUI

@Suite("OSC 52 clipboard")
struct OSC52Tests {
    @Test func theSequenceIsOSC52WithTheTextInBase64() {
        let bytes = OSC52.sequence(copying: "ana@example.com")
        #expect(String(decoding: bytes, as: UTF8.self) == "\u{1B}]52;c;YW5hQGV4YW1wbGUuY29t\u{07}")
    }

    @Test func controlCharactersInTheEmailNeverReachTheTerminalRaw() {
        // An ESC, a BEL and a C1 CSI would end the sequence early or start another; base64
        // turns every byte of the text into one of A–Z a–z 0–9 + / =.
        let hostile = "a\u{1B}]52;c;evil\u{07}\u{9B}2J@example.com"
        let bytes = OSC52.sequence(copying: hostile)
        let payload = bytes.dropFirst(7).dropLast()
        #expect(bytes.prefix(7).elementsEqual("\u{1B}]52;c;".utf8))
        #expect(bytes.last == 0x07)
        let base64Alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=".utf8)
        #expect(payload.allSatisfy(base64Alphabet.contains))
        #expect(Data(base64Encoded: Data(payload)).map { String(decoding: $0, as: UTF8.self) } == hostile)
    }

    @Test func insideTmuxThePlainSequenceComesFirstThenThePassthrough() {
        let plain = OSC52.sequence(copying: "a@b.c")
        #expect(OSC52.sequences(copying: "a@b.c", environment: [:]) == plain)
        let inTmux = OSC52.sequences(copying: "a@b.c", environment: ["TMUX": "/tmp/tmux-0/default,1,0"])
        #expect(Array(inTmux.prefix(plain.count)) == plain)
        let wrapped = String(decoding: inTmux.dropFirst(plain.count), as: UTF8.self)
        #expect(wrapped == "\u{1B}Ptmux;\u{1B}\u{1B}]52;c;YUBiLmM=\u{07}\u{1B}\\")
    }
}
