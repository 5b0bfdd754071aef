/// Every key, grouped by where it works: the `?` screen and the hint bar read from here, so
/// what the help says is what the bindings do.
public enum KeyHelp {
    public static let sections: [HelpSection] = [
        HelpSection(title: "User list", entries: [
            Hint("j  ↓", "Next user"),
            Hint("k  ↑", "Previous user"),
            Hint("PgDn  Ctrl-F  Space", "Next page"),
            Hint("PgUp  Ctrl-B", "Previous page"),
            Hint("g  Home", "First user"),
            Hint("G  End", "Last user"),
            Hint("/", "Search names and emails"),
            Hint("Esc", "Clear the search"),
            Hint("f", "Filter line: status:… role:… group:…"),
            Hint("t", "Status filter: next status, then all"),
            Hint("o", "Role filter: next role, then all"),
            Hint("F", "Clear the filters"),
            Hint("y", "Copy the email (OSC 52 clipboard)"),
            Hint("x", "Export the list as shown to CSV"),
            Hint("i", "Import users from a CSV file"),
            Hint("s", "Change the sort order"),
            Hint("S", "Suspend or reactivate"),
            Hint("n", "New user"),
            Hint("e  Enter", "Edit the selected user"),
            Hint("d  Delete", "Delete the selected user"),
            Hint("r", "Retry what failed"),
            Hint("R  Ctrl-R", "Refresh the list"),
            Hint("Ctrl-L", "Redraw the screen"),
            Hint("Mouse", "Click selects, wheel scrolls"),
            Hint("?", "This help"),
            Hint("q  Ctrl-C", "Quit; asks if a form has changes"),
        ]),
        HelpSection(title: "Filter line", entries: [
            Hint("Enter", "Apply, e.g. status:suspended role:admin"),
            Hint("Esc", "Close, keeping the filters in force"),
        ]),
        HelpSection(title: "Export and import", entries: [
            Hint("Enter  Esc", "In the file prompt: go on, cancel"),
            Hint("Esc", "Export: stop, remove the file"),
            Hint("Enter", "Import preview: create the good rows"),
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
