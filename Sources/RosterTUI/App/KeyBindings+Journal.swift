import RosterApp

/// Keys of the recent changes screen (`U`).
extension KeyBindings {
    static func recentChanges(_ key: Key, changes: RecentChangesModel, model: AppModel) {
        switch key {
        case .character("j"), .down: changes.move(by: 1)
        case .character("k"), .up: changes.move(by: -1)
        case .pageDown, .control("f"), .character(" "): changes.pageDown()
        case .pageUp, .control("b"): changes.pageUp()
        case .character("g"), .home: changes.moveToTop()
        case .character("G"), .end: changes.moveToBottom()
        case .enter, .character("l"), .right: model.confirm()
        case .character("u"): changes.undoSelected()
        case .character("o"): model.overwriteConflicts(in: changes)
        case .character("r"): model.retry()
        case .escape, .character("q"), .character("h"), .left: model.close()
        default: break
        }
    }

    static func recentChangesHints(_ changes: RecentChangesModel) -> [Hint] {
        switch changes.mode {
        case .changes: [Hint("Enter", "A run's users"), Hint("u", "Undo"), Hint("j/k", "Move"), Hint("Esc", "Close")]
        case .run: [Hint("u", "Undo this change"), Hint("j/k", "Move"), Hint("Esc", "Back")]
        case .undo(let undo) where undo.isActive: [Hint("Esc", "Stop")]
        case .undo(let undo):
            (undo.conflicts.isEmpty ? [] : [Hint("o", "Overwrite conflicts")]) + (undo.failures.isEmpty ? [] : [Hint("r", "Retry failures")])
                + [Hint("Esc", "Back")]
        }
    }
}
