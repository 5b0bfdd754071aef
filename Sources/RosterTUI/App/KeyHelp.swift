import RosterKit

/// Every key, grouped by where it works: the `?` screen and the hint bar read from here, so
/// what the help says is what the bindings do.
public enum KeyHelp {
    static let helpDeskTitle = "Help desk"
    static let resetKey = "P"
    static let unlockKey = "L"

    /// The sections for this directory: a key the directory's traits rule out is not listed.
    public static func sections(for traits: DirectoryTraits) -> [HelpSection] {
        sections.compactMap { section in
            var section = section
            let isHelpDesk = section.title == helpDeskTitle
            section.entries.removeAll { hint in
                isHelpDesk
                    && (hint.key == resetKey && !traits.canResetPassword || hint.key == unlockKey && !traits.canUnlock)
            }
            return section.entries.isEmpty ? nil : section
        }
    }

    public static let sections: [HelpSection] = [
        HelpSection(title: "User list", entries: [
            Hint("j  ↓", "Next user"),
            Hint("k  ↑", "Previous user"),
            Hint("PgDn  Ctrl-F", "Next page"),
            Hint("PgUp  Ctrl-B", "Previous page"),
            Hint("g  Home", "First user"),
            Hint("G  End", "Last user"),
            Hint("/", "Search names and emails"),
            Hint("Esc", "Clear the search"),
            Hint("f", "Filter line: status:… role:… group:…"),
            Hint("t", "Status filter: next status, then all"),
            Hint("o", "Role filter: next role, then all"),
            Hint("F", "Clear the filters"),
            Hint("y", "Copy the email(s) (OSC 52 clipboard)"),
            Hint("h", "The user's history of changes (roster-server)"),
            Hint("x", "Export the list as shown to CSV"),
            Hint("i", "Import users from a CSV file"),
            Hint("s", "Change the sort order"),
            Hint("S", "Suspend or reactivate"),
            Hint("n", "New user"),
            Hint("e  Enter", "Edit the selected user"),
            Hint("d  Delete", "Delete the selected user"),
            Hint("r", "Retry what failed"),
            Hint("R  Ctrl-R", "Refresh the list"),
            Hint("Tab", "The groups view (and back)"),
            Hint("C", "Switch connection (profiles in the settings)"),
            Hint("+  -", "Add to a group, remove from one"),
            Hint("Ctrl-L", "Redraw the screen"),
            Hint("Mouse", "Click selects, wheel scrolls"),
            Hint("?", "This help"),
            Hint("q  Ctrl-C", "Quit; asks if a form has changes"),
        ]),
        HelpSection(title: "Marks and bulk actions", entries: [
            Hint("Space", "Mark or unmark the user, move down"),
            Hint("*", "Mark all matching (every page)"),
            Hint("u", "Unmark all"),
            Hint("b", "Actions on the marked (or selected)"),
            Hint("S  d  y", "With marks: suspend, delete, copy them"),
            Hint("Esc", "During a run: stop after those in flight"),
            Hint("r (summary)", "Retry just the failures"),
        ]),
        HelpSection(title: "Recent changes and undo", entries: [
            Hint("U", "Recent changes and runs"),
            Hint("Enter", "A run's users"),
            Hint("u", "Undo the change or run (asks first)"),
            Hint("o (summary)", "Set back conflicts anyway"),
            Hint("P", "Kept without the password: no undo"),
        ]),
        // On the marked users, or the selected one.
        HelpSection(title: helpDeskTitle, entries: [
            Hint(resetKey, "Reset the password (typed twice, unseen; Ctrl-G generates one)"),
            Hint(unlockKey, "Unlock after failed logins"),
        ]),
        HelpSection(title: "Groups view", entries: [
            Hint("j  k  PgDn  PgUp", "Move in the pane with the keys"),
            Hint("Enter  l  →", "Into the members"),
            Hint("Esc  h  ←", "Back to the groups"),
            Hint("/", "Search the groups' names; Esc clears it"),
            Hint("n", "New group"),
            Hint("e  F2", "Rename the group"),
            Hint("d  Delete", "Delete the group (asks); on a member, remove them"),
            Hint("a  +", "Add a member: find a user by name or email"),
            Hint("x  -", "Remove the selected member (asks)"),
            Hint("R", "Read the groups again"),
            Hint("Tab", "Back to the users"),
        ]),
        HelpSection(title: "Choosing a user or group", entries: [
            Hint("type", "Narrow the choices by name"),
            Hint("↑  ↓  Tab", "Highlight another"),
            Hint("Enter", "Add or remove the highlighted one"),
            Hint("Esc", "Close"),
        ]),
        HelpSection(title: "Connections (C)", entries: [
            Hint("type  ↑  ↓", "Narrow the profiles, highlight one"),
            Hint("Enter", "Switch; each keeps its list and search"),
            Hint("Ctrl-R", "Access review: this connection against the highlighted"),
            Hint("Esc", "Close"),
        ]),
        HelpSection(title: "Access review (Ctrl-R in C)", entries: [
            Hint("]  [", "Next, previous list: leavers, only in target, only in source, drift"),
            Hint("*  b  S", "Mark the list, act on its accounts (on the target), journalled"),
            Hint("C  Enter", "Leave the review for a connection"),
        ]),
        HelpSection(title: "Filter line", entries: [
            Hint("Enter", "Apply, e.g. status:suspended role:admin"),
            Hint("Esc", "Close, keeping the filters in force"),
        ]),
        HelpSection(title: "Export and import", entries: [
            Hint("Enter  Esc", "In the file prompt: go on, cancel"),
            Hint("Esc", "Export: stop, remove the file"),
            Hint("Enter", "Import: send new and changed rows"),
            Hint("c", "Import: create, update or both"),
            Hint("m", "Import: map columns (h l a field)"),
            Hint("Tab", "Import: list new, changed, bad…"),
            Hint("j  k  PgDn  PgUp", "Import: scroll the rows"),
            Hint("Esc", "Import: stop after requests in flight"),
        ]),
        HelpSection(title: "Search line", entries: [
            Hint("Enter", "Keep the search"),
            Hint("Esc", "Back to the previous search"),
            Hint("↑  ↓", "Move in the list while typing"),
        ]),
        HelpSection(title: "Forms", entries: [
            Hint("Tab  ↓", "Next field"),
            Hint("Shift-Tab  ↑", "Previous field"),
            Hint("←  →  Space", "Move the cursor; pick a role"),
            Hint("Home End Ctrl-A/E", "Start or end of the field"),
            Hint("Backspace  Delete", "Delete a character"),
            Hint("Ctrl-U  Ctrl-K", "Delete to the start, to the end"),
            Hint("Ctrl-W", "Delete the word before"),
            Hint("Enter", "Create or save"),
            Hint("Esc", "Cancel; asks if anything changed"),
        ]),
        HelpSection(title: "This help", entries: [
            Hint("j  k  PgDn  PgUp", "Scroll, when it does not fit"),
        ]),
        HelpSection(title: "Dialogs", entries: [
            Hint("r  Enter", "Retry (error) or confirm"),
            Hint("y  n", "Confirm or cancel"),
            Hint("Esc", "Close"),
        ]),
    ]
}
