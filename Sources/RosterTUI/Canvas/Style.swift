/// What a piece of text is, not how it looks: the theme decides colours and attributes, so a
/// monochrome terminal (NO_COLOR) gets a readable rendering of the same screen.
public enum Style: Sendable, Hashable, CaseIterable {
    case normal
    case dim
    case bold
    case header
    case columnTitle
    case selected
    case selectedInactive
    case accent
    case placeholder
    case error
    case success
    case warning
    case border
    case dialog
    case dialogTitle
    case input
    case inputFocused
    case button
    case buttonFocused
    case hintKey
    case hint
    case roleAdmin
    case statusActive
    case statusSuspended
    case statusInvited
    /// A row marked for a bulk action: its mark and name.
    case marked
    /// The done part of a progress bar.
    case progressDone
}
