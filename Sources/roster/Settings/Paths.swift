import Foundation

/// Where Roster keeps its files, following the XDG base directory specification.
struct Paths {
    var environment: [String: String]

    private var home: String {
        environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    }

    private func base(_ variable: String, default relative: String) -> String {
        if let value = environment[variable], value.hasPrefix("/") { return value }
        return home + "/" + relative
    }

    /// Roster's own folders: data, state and configuration (each made 0700: `PrivateFiles`).
    var dataFolder: String { base("XDG_DATA_HOME", default: ".local/share") + "/roster" }
    var stateFolder: String { base("XDG_STATE_HOME", default: ".local/state") + "/roster" }
    var configFolder: String { base("XDG_CONFIG_HOME", default: ".config") + "/roster" }

    /// `$XDG_DATA_HOME/roster/roster.sqlite`: the embedded server's database.
    var database: String { dataFolder + "/roster.sqlite" }
    /// `$XDG_STATE_HOME/roster/roster.log`.
    var logFile: String { stateFolder + "/roster.log" }
    /// `$XDG_STATE_HOME/roster/draft.json`: a changed form kept when a signal stopped the app.
    var draftFile: String { stateFolder + "/draft.json" }
    /// `$XDG_STATE_HOME/roster/import-mappings.json`: the import columns a person mapped, per header set.
    var importMappingsFile: String { stateFolder + "/import-mappings.json" }
    /// `$XDG_STATE_HOME/roster/dialects.tsv`: the dialect each server spoke when `--api auto` found out (`KnownDialects`).
    var dialectsFile: String { stateFolder + "/dialects.tsv" }
    /// `$XDG_STATE_HOME/roster/journal.sqlite`: the change journal (every write, for undo).
    var journalFile: String { stateFolder + "/journal.sqlite" }
    /// `$XDG_CONFIG_HOME/roster/roster.json`, read when it exists and no --config is given.
    var configFile: String { configFolder + "/roster.json" }

    /// `~/x` → `/home/me/x`.
    func expand(_ path: String) -> String {
        path == "~" ? home : path.hasPrefix("~/") ? home + path.dropFirst(1) : path
    }
}
