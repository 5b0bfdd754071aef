import CNCursesW
import Testing
@testable import RosterTUI

/// The table `define_key` is given: each sequence once, each an escape sequence, each meaning a
/// key Roster binds. That ncurses then decodes them is checked through a real pty in
/// EndToEndTests/TerminalKeysEndToEndTests.swift.
@Suite struct KeySequencesTests {
    @Test func everySequenceIsAnEscapeSequenceListedOnce() {
        let sequences = KeySequences.variants.map(\.sequence)
        #expect(Set(sequences).count == sequences.count)
        #expect(sequences.allSatisfy { $0.hasPrefix("\u{1B}") && $0.count >= 3 })
    }

    @Test func everyVariantMeansAKeyRosterKnows() {
        for (sequence, code) in KeySequences.variants {
            if case .unknown = KeyDecoder.functionKey(code) { Issue.record("\(sequence.debugDescription) → unknown code \(code)") }
        }
    }

    @Test func theFormsTerminalsSendForEndAllMeanEnd() {
        let table = Dictionary(uniqueKeysWithValues: KeySequences.variants.map { ($0.sequence, $0.code) })
        for end in ["[4~", "[8~", "[F", "OF", "[1;5F", "[4;2~", "[8$"] {
            #expect(table["\u{1B}" + end].map(KeyDecoder.functionKey) == .end, "\(end)")
        }
        for home in ["[1~", "[7~", "[H", "OH"] {
            #expect(table["\u{1B}" + home].map(KeyDecoder.functionKey) == .home, "\(home)")
        }
        #expect(table["\u{1B}[2~"].map(KeyDecoder.functionKey) == .insert)
        #expect(table["\u{1B}[3~"].map(KeyDecoder.functionKey) == .delete)
        #expect(table["\u{1B}[1;5C"].map(KeyDecoder.functionKey) == .right)
    }
}
