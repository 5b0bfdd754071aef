import Foundation

/// The names Roster gives its files, and the checks before writing one.
public enum CSVFileNames {
    /// `./roster-users-20261123-1412.csv`: the export's default, in the working directory,
    /// stamped to the minute in local time so two exports an hour apart do not collide.
    public static func defaultExport(at date: Date = Date(), timeZone: TimeZone = .current) -> String {
        "./roster-users-\(stamp(date, timeZone: timeZone)).csv"
    }

    /// `users.csv` → `users.import-report-20261123-141203.csv`, in the same folder.
    public static func importReport(for input: String, at date: Date = Date(), timeZone: TimeZone = .current) -> String {
        let url = URL(fileURLWithPath: input)
        let base = url.deletingPathExtension().lastPathComponent
        let name = "\(base).import-report-\(stamp(date, timeZone: timeZone, seconds: true)).csv"
        return url.deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// `~/x.csv` → the home folder's `x.csv`; anything else as typed, trimmed.
    public static func expand(_ typed: String) -> String {
        let path = typed.trimmingCharacters(in: .whitespaces)
        if path == "~" || path.hasPrefix("~/") {
            return FileManager.default.homeDirectoryForCurrentUser.path + path.dropFirst()
        }
        return path
    }

    public static func exists(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    public static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    private static func stamp(_ date: Date, timeZone: TimeZone, seconds: Bool = false) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        let day = "\(parts.year ?? 0)\(two(parts.month))\(two(parts.day))"
        return "\(day)-\(two(parts.hour))\(two(parts.minute))" + (seconds ? two(parts.second) : "")
    }
}
