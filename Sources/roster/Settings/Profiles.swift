import Foundation
import RosterKit
import NIOConcurrencyHelpers

/// Every profile of a settings file resolved on its own, for `--list-profiles` and
/// `--check --all`: each profile's own connection counts there, so the flags and environment
/// variables that name a connection (--server, ROSTER_SERVER...) are left out.
struct Profiles {
    let file: SettingsFile
    let flags: Settings.Flags
    let environment: [String: String]

    /// Each profile's name (sorted) and its settings, or why they cannot be resolved.
    func each() -> [(name: String, settings: Result<Settings, SettingsError>)] {
        var environment = environment
        for name in ["ROSTER_SERVER", "ROSTER_API", "ROSTER_TOKEN", "ROSTER_PROFILE"] { environment[name] = nil }
        return file.connections.keys.sorted().map { name in
            let flags = Settings.Flags(config: flags.config, profile: name)
            return (name, Result { () throws(SettingsError) in
                do { return try Settings.resolve(flags: flags, environment: environment, file: file) } catch let error as SettingsError {
                    throw error
                } catch {
                    throw SettingsError("\(error)")
                }
            })
        }
    }

    /// One line a profile: the default marked with *, its server and API; never a secret.
    func listing() -> [String] {
        let profiles = each()
        guard !profiles.isEmpty else { return ["No profiles: the configuration file has no connections."] }
        let width = profiles.map(\.name.count).max() ?? 0
        return profiles.map { name, result in
            let mark = name == file.defaultProfile ? "* " : "  "
            let padded = name.padding(toLength: width, withPad: " ", startingAt: 0)
            switch result {
            case .success(let settings): return "\(mark)\(padded)  \(settings.connectionSummary)"
            case .failure(let error): return "\(mark)\(padded)  ✗ \(error.message)"
            }
        }
    }

    /// Runs the connection doctor on every profile: one line each, then the whole report of
    /// each one that failed. Exit 0 when all are well.
    func checkAll(output: @escaping @Sendable (String) -> Void) async -> Int32 {
        let profiles = each()
        guard !profiles.isEmpty else {
            output("No profiles: the configuration file has no connections.")
            return 1
        }
        let width = profiles.map(\.name.count).max() ?? 0
        var failures: [(name: String, lines: [String])] = []
        for (name, result) in profiles {
            let padded = name.padding(toLength: width, withPad: " ", startingAt: 0)
            switch result {
            case .failure(let error):
                output("\(padded)  ✗ \(error.message)")
            case .success(let settings):
                let lines = CollectedLines()
                let code = await ConnectionCheck(settings: settings, environment: environment) { line in
                    lines.lines.withLockedValue { $0.append(line) }
                }.run()
                let report = lines.lines.withLockedValue { $0 }
                let result = report.last { $0.hasPrefix("Result") }.map { String($0.dropFirst(12)) } ?? ""
                output("\(padded)  \(result)  \(settings.connectionSummary)")
                if code != 0 { failures.append((name, report)) }
            }
        }
        for failure in failures {
            output("")
            output("── \(failure.name)")
            failure.lines.forEach(output)
        }
        return failures.isEmpty && profiles.allSatisfy({ (try? $0.settings.get()) != nil }) ? 0 : 1
    }
}

/// A check's lines, kept to print after the one-line summary.
private final class CollectedLines: Sendable {
    let lines = NIOLockedValueBox<[String]>([])
}

extension Settings {
    /// Where these settings connect and how, for a listing: no token, no password.
    var connectionSummary: String {
        let server = server.map(Redaction.url) ?? "embedded server (\(database))"
        return "\(server)  api \(self.server == nil ? "roster" : api.rawValue)"
    }
}
