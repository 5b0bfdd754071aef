/// A bar of `width` cells, filled in eighths: "██████▍░░░░".
public enum ProgressBar {
    static let eighths = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    public static func text(_ fraction: Double, width: Int) -> String {
        guard width > 0 else { return "" }
        let clamped = min(1, max(0, fraction))
        let filled = Int((clamped * Double(width * 8)).rounded(.down))
        let full = filled / 8
        let part = full < width ? eighths[filled % 8] : ""
        let used = full + (part.isEmpty ? 0 : 1)
        return String(repeating: "█", count: full) + part + String(repeating: "░", count: max(0, width - used))
    }
}
