/// What the list does when a one-row move takes the selection off the screen.
public enum ScrollStyle: String, Sendable, CaseIterable {
    /// Scrolls one row, as tig and htop do. Every line of the list then changes, and beside the
    /// detail pane a terminal cannot scroll them in hardware: about 500 bytes per key.
    case line
    /// Scrolls half a screen, as mutt does for slow links: most moves then rewrite two short
    /// cells, and a redraw comes once per half screen.
    case halfScreen = "half-screen"
}
