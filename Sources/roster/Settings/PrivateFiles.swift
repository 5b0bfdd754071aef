import Foundation

/// Roster's files hold personal data (the embedded server's database is a whole directory of
/// people; drafts, logs, exports and import reports too) and sometimes secrets (the
/// configuration file's token): its folders are its owner's alone (0700), its files too (0600).
enum PrivateFiles {
    /// Everything made from here on (SQLite's database and its WAL and SHM, which SQLite makes
    /// with the database's mode, the log, drafts, exports, import reports) is made private:
    /// the umask ssh-agent and gpg-agent use.
    static func restrictNewFiles() {
        umask(0o077)
    }

    /// Roster's own folders, and the files it keeps, that exist already.
    static func paths(of settings: Settings, environment: [String: String]) -> (folders: [String], files: [String]) {
        let paths = Paths(environment: environment)
        let database = [settings.database, settings.database + "-wal", settings.database + "-shm"]
        let journal = settings.journalFile.map { [$0, $0 + "-wal", $0 + "-shm"] } ?? []
        return ([paths.dataFolder, paths.stateFolder, paths.configFolder],
                database + journal + [settings.logFile, settings.draftFile, settings.importMappingsFile, settings.dialectsFile, paths.configFile])
    }

    /// Takes group and others' access away from those that have it: folders to 0700, files
    /// to 0600. A missing path is skipped. Returns a line for the log for each one changed.
    static func tighten(folders: [String], files: [String]) -> [String] {
        var changed: [String] = []
        for (path, mode) in folders.map({ ($0, mode_t(0o700)) }) + files.map({ ($0, mode_t(0o600)) }) {
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & 0o170000 != 0o120000 /* not a symbolic link */, info.st_mode & 0o077 != 0 else { continue }
            let old = String(info.st_mode & 0o777, radix: 8)
            if chmod(path, mode) == 0 {
                changed.append("made \(path) private: mode \(old) → \(String(mode, radix: 8))")
            } else {
                changed.append("could not make \(path) private (mode \(old)): \(String(cString: strerror(errno)))")
            }
        }
        return changed
    }
}
