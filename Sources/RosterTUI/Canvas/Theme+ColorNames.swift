/// Colours by the names a settings file gives them (a profile's header colour).
extension Theme.Color {
    public static let names = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]

    public static func named(_ name: String) -> Theme.Color? {
        names.firstIndex(of: name.lowercased()).flatMap { Theme.Color(rawValue: Int16($0)) }
    }
}
