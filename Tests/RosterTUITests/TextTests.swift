import Testing
@testable import RosterTUI

@Suite("Measuring and sanitising text")
@MainActor
struct TextTests {
    init() { TextWidth.activateUTF8Locale() }

    @Test func columnsFollowTheTerminalsRules() {
        #expect(TextWidth.columns(of: "Ana Silva") == 9)
        #expect(TextWidth.columns(of: "王小明") == 6)
        #expect(TextWidth.columns(of: "김민준") == 6)
        #expect(TextWidth.columns(of: "🦊") == 2)
        #expect(TextWidth.columns(of: "e\u{301}") == 1, "a combining accent takes no column")
        #expect(TextWidth.columns(of: "محمد") == 4)
    }

    @Test func truncationCutsOnAColumnBoundaryWithAnEllipsis() {
        #expect(TextWidth.truncate("Ana Silva", toColumns: 20) == "Ana Silva")
        #expect(TextWidth.truncate("Ana Silva", toColumns: 5) == "Ana …")
        // Five columns: two wide characters (4) and the ellipsis; the third never half-drawn.
        #expect(TextWidth.truncate("王小明王小明", toColumns: 5) == "王小…")
        #expect(TextWidth.truncate("王小明王小明", toColumns: 6) == "王小…")
        #expect(TextWidth.columns(of: TextWidth.truncate("王小明王小明", toColumns: 6)) <= 6)
        #expect(TextWidth.truncate("José\u{301}é", toColumns: 4) == "Jos…", "a letter keeps its accent or goes with it")
        #expect(TextWidth.fit("王", toColumns: 4) == "王  ")
        #expect(TextWidth.truncate("abc", toColumns: 0) == "")
    }

    @Test func wrappingKeepsWordsAndWidth() {
        let lines = TextWrap.lines("The server is temporarily unavailable; it asks to wait 1 second.", width: 20)
        #expect(lines == ["The server is", "temporarily", "unavailable; it asks", "to wait 1 second."])
        #expect(TextWrap.lines("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
    }

    nonisolated static let hostileNames: [(name: String, visible: String)] = [
        ("Eve\u{1B}[2J", "Eve␛[2J"),
        ("Mallory\u{1B}]52;c;ZXZpbA==\u{07}", "Mallory␛]52;c;ZXZpbA==␇"),
        ("Oscar\u{9B}31m", "Oscar\u{FFFD}31m"),
        ("Trudy\u{202E}evil", "Trudy\u{FFFD}evil"),
        ("Nul\u{0}byte", "Nul␀byte"),
        ("Del\u{7F}ete", "Del␡ete"),
    ]

    @Test(arguments: hostileNames)
    func hostileTextIsDrawnAsVisibleHarmlessText(_ sample: (name: String, visible: String)) {
        let canvas = GridCanvas(columns: 40, rows: 1)
        canvas.draw(sample.name, at: Point(row: 0, column: 0))
        #expect(canvas.lines[0] == sample.visible)
        for cell in canvas.cells[0] {
            for scalar in cell.text.unicodeScalars {
                #expect(!(scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)),
                        "control U+\(String(scalar.value, radix: 16)) reached the screen")
            }
        }
    }

    @Test func plainTextIsNotCopied() {
        let name = "Ana Silva"
        #expect(Sanitizer.sanitize(name) == name)
    }
}
