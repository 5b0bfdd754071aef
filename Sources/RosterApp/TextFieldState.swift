/// One line-editing keystroke, as the front end decodes it.
public enum TextEdit: Sendable, Equatable {
    case insert(String)
    /// Backspace: the character before the cursor.
    case deleteBackward
    /// Delete: the character under the cursor.
    case deleteForward
    case moveLeft
    case moveRight
    /// Home, Ctrl-A.
    case moveToStart
    /// End, Ctrl-E.
    case moveToEnd
    /// Ctrl-U: everything before the cursor.
    case deleteToStart
    /// Ctrl-K: everything from the cursor on.
    case deleteToEnd
    /// Ctrl-W: the word before the cursor, and the spaces after it.
    case deleteWordBackward
}

/// The text of a one-line field and where its cursor is, counted in characters (grapheme
/// clusters), so the cursor never lands inside an emoji or a combined letter. The front end
/// turns `textBeforeCursor` into a column with wcwidth.
public struct TextFieldState: Sendable, Equatable {
    public private(set) var text: String
    /// How many characters precede the cursor: 0...text.count.
    public private(set) var cursor: Int

    /// A field holding `text`, with the cursor at its end.
    public init(_ text: String = "") {
        self.text = text
        self.cursor = text.count
    }

    public var textBeforeCursor: Substring {
        text.prefix(cursor)
    }

    /// The most a field holds, in UTF-8 bytes: far above any field's own limit (a name's 100
    /// characters, an email's 254), and low enough that a paste of megabytes stops here. Each
    /// edit copies the text, so a field of a million characters made every keystroke after it
    /// slower: pasting 1 MB into the form kept roster busy for minutes.
    public static let maximumUTF8Length = 4096

    /// Applies one keystroke; returns whether the text changed (a cursor move does not). An
    /// insert keeps only the characters that fit in `maximumUTF8Length`; a full field takes none.
    @discardableResult
    public mutating func apply(_ edit: TextEdit) -> Bool {
        var edit = edit
        if case .insert(let inserted) = edit {
            // Checked before anything is copied: once full, a key costs nothing.
            let room = Self.maximumUTF8Length - text.utf8.count
            guard room > 0 else { return false }
            if inserted.utf8.count > room { edit = .insert(Self.prefix(of: inserted, fittingIn: room)) }
        }
        var characters = Array(text)
        let before = text
        switch edit {
        case .insert(let inserted):
            characters.insert(contentsOf: inserted, at: cursor)
            cursor += inserted.count
        case .deleteBackward:
            guard cursor > 0 else { return false }
            characters.remove(at: cursor - 1)
            cursor -= 1
        case .deleteForward:
            guard cursor < characters.count else { return false }
            characters.remove(at: cursor)
        case .moveLeft:
            cursor = max(0, cursor - 1)
        case .moveRight:
            cursor = min(characters.count, cursor + 1)
        case .moveToStart:
            cursor = 0
        case .moveToEnd:
            cursor = characters.count
        case .deleteToStart:
            characters.removeSubrange(0..<cursor)
            cursor = 0
        case .deleteToEnd:
            characters.removeSubrange(cursor...)
        case .deleteWordBackward:
            var start = cursor
            while start > 0, characters[start - 1].isWhitespace { start -= 1 }
            while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
        }
        let after = String(characters)
        guard after != before else { return false }
        // An inserted combining mark can merge with its neighbour: recount the cursor.
        cursor = String(characters[..<cursor]).count
        text = after
        return true
    }

    /// The first characters of `text` whose UTF-8 takes at most `bytes`.
    private static func prefix(of text: String, fittingIn bytes: Int) -> String {
        var used = 0
        var end = text.startIndex
        for index in text.indices {
            used += text[index].utf8.count
            if used > bytes { break }
            end = text.index(after: index)
        }
        return String(text[..<end])
    }

    /// Replaces the whole text, with the cursor at its end.
    public mutating func setText(_ newText: String) {
        text = newText
        cursor = newText.count
    }
}
