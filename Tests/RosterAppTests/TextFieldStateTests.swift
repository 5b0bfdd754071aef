import Testing
import RosterApp

@Suite("TextFieldState")
struct TextFieldStateTests {
    private func field(_ text: String, cursor: Int) -> TextFieldState {
        var field = TextFieldState(text)
        field.apply(.moveToStart)
        for _ in 0..<cursor { field.apply(.moveRight) }
        return field
    }

    @Test func aPasteOfAMegabyteStopsAtTheFieldsMostAndLaterKeysChangeNothing() {
        let most = TextFieldState.maximumUTF8Length
        var field = TextFieldState("Ana ")
        let pasted = field.apply(.insert(String(repeating: "N", count: 1_048_576)))
        #expect(pasted)
        #expect(field.text.utf8.count == most)
        #expect(field.text.hasPrefix("Ana N"))
        #expect(field.cursor == most)
        let oneMore = field.apply(.insert("N"))
        #expect(!oneMore, "a full field takes nothing more")
        let deleted = field.apply(.deleteBackward)
        #expect(deleted)
        // Characters are never split: a two-byte letter does not fit in the last byte.
        let twoBytes = field.apply(.insert("é"))
        #expect(!twoBytes)
        #expect(field.text.utf8.count == most - 1)
        let two = field.apply(.insert("ab"))
        #expect(two)
        #expect(field.text.hasSuffix("a") && field.text.utf8.count == most)
    }

    @Test func startsWithTheCursorAtTheEnd() {
        let field = TextFieldState("Ana")
        #expect(field.cursor == 3)
        #expect(field.textBeforeCursor == "Ana")
    }

    @Test func insertsAtTheCursor() {
        var field = self.field("Aa", cursor: 1)
        let changed = field.apply(.insert("n"))
        #expect(changed)
        #expect(field.text == "Ana")
        #expect(field.cursor == 2)
        field.apply(.moveToEnd)
        field.apply(.insert(" Silva"))
        #expect(field.text == "Ana Silva")
        #expect(field.cursor == 9)
    }

    @Test func backspaceAndDeleteRemoveAroundTheCursor() {
        var field = self.field("Anna", cursor: 2)
        let changed = field.apply(.deleteBackward)
        #expect(changed)
        #expect(field.text == "Ana")
        #expect(field.cursor == 1)
        let changedAgain = field.apply(.deleteForward)
        #expect(changedAgain)
        #expect(field.text == "Aa")
        #expect(field.cursor == 1)
    }

    @Test func backspaceAtTheStartAndDeleteAtTheEndChangeNothing() {
        var start = self.field("Ana", cursor: 0)
        let unchanged = !start.apply(.deleteBackward)
        #expect(unchanged)
        #expect(start.text == "Ana")
        var end = TextFieldState("Ana")
        let unchangedToo = !end.apply(.deleteForward)
        #expect(unchangedToo)
        #expect(end.text == "Ana")
    }

    @Test func cursorMovesStayInsideTheText() {
        var field = TextFieldState("ab")
        let unchanged = !field.apply(.moveRight)
        #expect(unchanged)
        #expect(field.cursor == 2)
        field.apply(.moveLeft)
        field.apply(.moveLeft)
        field.apply(.moveLeft)
        #expect(field.cursor == 0)
        field.apply(.moveToEnd)
        #expect(field.cursor == 2)
        field.apply(.moveToStart)
        #expect(field.cursor == 0)
        #expect(field.text == "ab")
    }

    @Test func controlUKillsEverythingBeforeTheCursor() {
        var field = self.field("Ana Silva", cursor: 4)
        let changed = field.apply(.deleteToStart)
        #expect(changed)
        #expect(field.text == "Silva")
        #expect(field.cursor == 0)
    }

    @Test func controlKKillsFromTheCursorOn() {
        var field = self.field("Ana Silva", cursor: 3)
        let changed = field.apply(.deleteToEnd)
        #expect(changed)
        #expect(field.text == "Ana")
        #expect(field.cursor == 3)
    }

    @Test func controlWKillsTheWordBeforeTheCursorAndTheSpacesAfterIt() {
        var field = TextFieldState("Ana Maria  Silva")
        field.apply(.deleteWordBackward)
        #expect(field.text == "Ana Maria  ")
        field.apply(.deleteWordBackward)
        #expect(field.text == "Ana ")
        field.apply(.deleteWordBackward)
        #expect(field.text == "")
        let unchanged = !field.apply(.deleteWordBackward)
        #expect(unchanged)
    }

    @Test func controlWInTheMiddleKeepsWhatFollows() {
        var field = self.field("Ana Silva", cursor: 3)
        field.apply(.deleteWordBackward)
        #expect(field.text == " Silva")
        #expect(field.cursor == 0)
    }

    @Test func theCursorCountsCharactersNotScalars() {
        var field = TextFieldState("José 👩‍👩‍👧")
        #expect(field.cursor == 6)
        field.apply(.deleteBackward)
        #expect(field.text == "José ")
        field.apply(.moveLeft)
        field.apply(.moveLeft)
        #expect(field.textBeforeCursor == "Jos")
    }

    @Test func anInsertedCombiningMarkJoinsItsLetter() {
        var field = TextFieldState("Jose")
        field.apply(.insert("\u{301}"))
        #expect(field.text == "Jos\u{E9}")
        #expect(field.cursor == 4)
        #expect(field.text.count == 4)
    }

    @Test func setTextPutsTheCursorAtTheEnd() {
        var field = TextFieldState("x")
        field.setText("Ana")
        #expect(field.text == "Ana")
        #expect(field.cursor == 3)
    }
}
