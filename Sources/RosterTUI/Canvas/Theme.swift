import CNCursesW

/// How each `Style` looks. With colours, a small palette over the terminal's own background;
/// without (NO_COLOR, or a terminal that has none), attributes only, chosen so that every
/// state stays distinguishable: selection in reverse video, errors in bold.
public struct Theme: Sendable {
    public enum Color: Int16, Sendable {
        case terminalDefault = -1
        case black = 0, red, green, yellow, blue, magenta, cyan, white
    }

    public struct Look: Sendable, Equatable {
        public var foreground: Color
        public var background: Color
        public var bold = false
        public var dim = false
        public var reverse = false
        public var underline = false

        public init(_ foreground: Color = .terminalDefault, on background: Color = .terminalDefault,
                    bold: Bool = false, dim: Bool = false, reverse: Bool = false, underline: Bool = false) {
            self.foreground = foreground
            self.background = background
            self.bold = bold
            self.dim = dim
            self.reverse = reverse
            self.underline = underline
        }

        var usesColor: Bool { foreground != .terminalDefault || background != .terminalDefault }
    }

    public var usesColor: Bool
    private var looks: [Style: Look]

    public func look(for style: Style) -> Look {
        looks[style] ?? Look()
    }

    /// This theme with the header on `background`: the connection's colour from its profile.
    /// Without colours the header stays as it is (its text names the connection anyway).
    public func withHeader(on background: Color?) -> Theme {
        guard usesColor, let background else { return self }
        var theme = self
        let light: Set<Color> = [.green, .yellow, .cyan, .white]
        theme.looks[.header] = Look(light.contains(background) ? .black : .white, on: background, bold: true)
        return theme
    }

    public static let color = Theme(usesColor: true, looks: [
        .normal: Look(),
        .dim: Look(dim: true),
        .bold: Look(bold: true),
        .header: Look(.white, on: .blue, bold: true),
        .columnTitle: Look(.cyan, bold: true),
        .selected: Look(.black, on: .cyan),
        .selectedInactive: Look(reverse: true),
        .accent: Look(.cyan),
        .placeholder: Look(dim: true),
        .error: Look(.red, bold: true),
        .success: Look(.green),
        .warning: Look(.yellow),
        .border: Look(.cyan),
        .dialog: Look(),
        .dialogTitle: Look(.cyan, bold: true),
        .input: Look(underline: true),
        .inputFocused: Look(.black, on: .white),
        .button: Look(bold: true),
        .buttonFocused: Look(.black, on: .cyan, bold: true),
        .hintKey: Look(.black, on: .cyan),
        .hint: Look(),
        .roleAdmin: Look(.magenta),
        .statusActive: Look(.green),
        .statusSuspended: Look(.red),
        .statusInvited: Look(.yellow),
        .marked: Look(.yellow, bold: true),
        .progressDone: Look(.cyan),
    ])

    public static let monochrome = Theme(usesColor: false, looks: [
        .normal: Look(),
        .dim: Look(dim: true),
        .bold: Look(bold: true),
        .header: Look(bold: true, reverse: true),
        .columnTitle: Look(bold: true, underline: true),
        .selected: Look(reverse: true),
        .selectedInactive: Look(reverse: true),
        .accent: Look(bold: true),
        .placeholder: Look(dim: true),
        .error: Look(bold: true),
        .success: Look(),
        .warning: Look(bold: true),
        .border: Look(),
        .dialog: Look(),
        .dialogTitle: Look(bold: true),
        .input: Look(underline: true),
        .inputFocused: Look(reverse: true),
        .button: Look(bold: true),
        .buttonFocused: Look(bold: true, reverse: true),
        .hintKey: Look(reverse: true),
        .hint: Look(),
        .roleAdmin: Look(bold: true),
        .statusActive: Look(),
        .statusSuspended: Look(bold: true),
        .statusInvited: Look(),
        .marked: Look(bold: true),
        .progressDone: Look(),
    ])

    /// ncurses attributes for every style; colour pairs are allocated here, so this runs once
    /// after `start_color`.
    @MainActor
    func makeAttributes(colorsAvailable: Bool) -> [Style: attr_t] {
        var attributes: [Style: attr_t] = [:]
        var pairs: [Look: Int16] = [:]
        for style in Style.allCases {
            let look = look(for: style)
            var value = roster_a_normal()
            if look.bold { value |= roster_a_bold() }
            if look.dim { value |= roster_a_dim() }
            if look.reverse { value |= roster_a_reverse() }
            if look.underline { value |= roster_a_underline() }
            if colorsAvailable && usesColor && look.usesColor {
                let key = Look(look.foreground, on: look.background)
                let pair = pairs[key] ?? {
                    let next = Int16(pairs.count + 1)
                    init_pair(next, look.foreground.rawValue, look.background.rawValue)
                    pairs[key] = next
                    return next
                }()
                value |= roster_color_pair(Int32(pair))
            } else if !(colorsAvailable && usesColor) && look.background != .terminalDefault && !look.reverse {
                // A colour theme on a terminal without colour: a coloured bar becomes reverse video.
                value |= roster_a_reverse()
            }
            attributes[style] = value
        }
        return attributes
    }
}

extension Theme.Look: Hashable {}
