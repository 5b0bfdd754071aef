import Foundation
import Logging
import RosterApp
import RosterKit
import RosterTUI

/// `roster compare hr saas --report review.csv`: an access review of two named connections
/// without a terminal, for a cron job or a ticket. Both are read at once, compared by a key,
/// and every finding written as a CSV row. Exit 0 when no one has left with access still on,
/// 1 when someone has, 2 on any error (with one sentence on standard error).
struct CompareCommand {
    static let spec = CommandSpec(
        name: "roster compare",
        abstract: "Compare two connections (an access review): who still has access who should not.",
        discussion: """
            SOURCE is the directory that decides (HR, the office's LDAP); TARGET the one that grants access \
            (a SaaS service). People are matched by --key, folded as directories fold them (case, Unicode NFKC). \
            Lists: leavers (active in TARGET, suspended in or absent from SOURCE), only in TARGET, only in SOURCE, \
            drift (name, email or role differ). --config FILE names the settings as for roster. \
            With --report (or without a terminal): exit 0: no leavers; 1: leavers; 2: an error. \
            Without --report in a terminal: the review on screen, as Ctrl-R in the connection picker (C).
            """,
        arguments: [
            .init(valueName: "source", help: "The profile that decides who should have access."),
            .init(valueName: "target", help: "The profile whose access is reviewed."),
        ],
        options: [
            .init(name: "report", valueName: "file.csv", help: "Write every finding to this CSV file (0600), one row each."),
            .init(name: "key", valueName: "key", help: "Match people by email (default), login or employee-number."),
            .init(name: "config", valueName: "file", help: "A configuration file (JSON5: comments allowed), as for roster."),
        ])

    var source: String?
    var target: String?
    var report: String?
    var key = ReviewKey.email.rawValue
    var configFile: String?

    init(_ line: ParsedCommandLine) {
        source = line.arguments.first
        target = line.arguments.dropFirst().first
        report = line.value("report")
        key = line.value("key") ?? key
        configFile = line.value("config")
    }

    /// The exit codes the issue promises, whatever went wrong.
    enum Code {
        static let noLeavers: Int32 = 0
        static let leavers: Int32 = 1
        static let error: Int32 = 2
    }

    func run() async throws {
        PrivateFiles.restrictNewFiles()
        let code: Int32
        do {
            code = try await review()
        } catch {
            FileHandle.standardError.write(Data("roster compare: \(Self.sentence(for: error))\n".utf8))
            throw ExitStatus(Code.error)
        }
        if code != 0 { throw ExitStatus(code) }
    }

    private func review() async throws -> Int32 {
        guard let source, let target else { throw LaunchError("name two profiles: roster compare SOURCE TARGET [--report FILE.csv].") }
        guard source != target else { throw LaunchError("SOURCE and TARGET are the same profile (\(source)): name two.") }
        guard let key = ReviewKey(rawValue: key) else {
            throw LaunchError("--key is email, login or employee-number, not “\(key)”.")
        }
        let environment = ProcessInfo.processInfo.environment
        let sides = try Self.settings(source, target, config: configFile, environment: environment)
        if report == nil, isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 {
            return try await screen(source: source, target: sides.target, environment: environment)
        }
        let sink = try FileLogHandler.Sink(path: sides.source.logFile)
        let level = sides.source.logLevel
        let makeLogger: @Sendable (String) -> Logger = { label in
            Logger(label: label) { label in FileLogHandler(label: label, sink: sink, logLevel: level) }
        }
        let logger = makeLogger("roster.compare")
        let opener = ConnectionOpener(environment: environment, makeLogger: makeLogger)
        let mayPrompt = isatty(STDIN_FILENO) == 1
        do {
            let from = try await opener.open(sides.source, mayPrompt: mayPrompt)
            let to = try await opener.open(sides.target, mayPrompt: mayPrompt)
            logger.info("access review: \(source) against \(target) by \(key.rawValue)")
            let outcome = try await AccessReview.run(
                source: ReviewSide(directory: from.directory, key: key), target: ReviewSide(directory: to.directory, key: key))
            let findings = outcome.findings
            for line in Self.summary(outcome, source: source, target: target, key: key) { print(line) }
            if let report {
                let rows = try ReviewReport.write(findings, to: report)
                print("Report: \(report) (\(rows) \(rows == 1 ? "row" : "rows"))")
            } else {
                for finding in findings.leavers {
                    // Names come from the network: nothing in them may act on the terminal.
                    let name = Sanitizer.sanitize(finding.target?.name ?? "")
                    print("  leaver  \(Sanitizer.sanitize(finding.key))  \(name)  \(finding.source == nil ? "absent in \(source)" : "suspended in \(source)")")
                }
            }
            logger.info("access review done: \(findings.leavers.count) leavers, \(findings.onlyInTarget.count) only in target, \(findings.onlyInSource.count) only in source, \(findings.drift.count) drift")
            await opener.shutdown()
            return findings.leavers.isEmpty ? Code.noLeavers : Code.leavers
        } catch {
            logger.error("access review failed: \(error)")
            await opener.shutdown()
            throw error
        }
    }

    /// Without --report in a terminal: the app on TARGET, its review against SOURCE started at
    /// once (the picker's Ctrl-R); the exit code is then the app's.
    private func screen(source: String, target settings: Settings, environment: [String: String]) async throws -> Int32 {
        let kept = PrivateFiles.paths(of: settings, environment: environment)
        var launcher = Launcher(settings: settings, notes: PrivateFiles.tighten(folders: kept.folders, files: kept.files))
        launcher.flags = Settings.Flags(config: configFile, profile: settings.profile)
        launcher.profilesFile = try Settings.loadFile(flags: launcher.flags, environment: environment)
        launcher.reviewSource = source
        return try await launcher.run()
    }

    /// Each profile's settings on its own, as `--list-profiles` resolves them: the variables
    /// that name one connection (ROSTER_SERVER...) would make both sides the same.
    static func settings(_ source: String, _ target: String, config: String?, environment: [String: String]) throws -> (source: Settings, target: Settings) {
        var environment = environment
        for name in ["ROSTER_SERVER", "ROSTER_API", "ROSTER_TOKEN", "ROSTER_PROFILE", "ROSTER_BIND_DN"] { environment[name] = nil }
        do {
            let file = try Settings.loadFile(flags: Settings.Flags(config: config), environment: environment)
            return (try Settings.resolve(flags: Settings.Flags(config: config, profile: source), environment: environment, file: file),
                    try Settings.resolve(flags: Settings.Flags(config: config, profile: target), environment: environment, file: file))
        } catch let error as SettingsError {
            throw LaunchError(error.message)
        }
    }

    /// What the run found, for the terminal or a cron mail.
    static func summary(_ outcome: AccessReview.Outcome, source: String, target: String, key: ReviewKey) -> [String] {
        let findings = outcome.findings
        func read(_ name: String, _ progress: WorkProgress) -> String {
            "  \(name): \(CountFormat.grouped(progress.done)) people in \(DurationFormat.duration(progress.elapsed))"
                + (progress.rate.map { " (\(DurationFormat.rate($0)))" } ?? "")
        }
        var lines = [
            "Access review of \(target) against \(source), matched by \(key.rawValue):",
            read(source, outcome.source), read(target, outcome.target),
            "  \(CountFormat.grouped(findings.matched)) matched; compared in \(outcome.compareTime / .milliseconds(1) < 1 ? "under 1" : String(Int(outcome.compareTime / .milliseconds(1)))) ms",
        ]
        lines += findings.lists.map { "  \($0.list.title): \(CountFormat.grouped($0.findings.count))" }
        if findings.sourceDuplicates > 0 {
            lines.append("  Note: \(findings.sourceDuplicates) people of \(source) share their \(key.rawValue) with another; each key is matched once.")
        }
        return lines
    }

    /// One sentence for standard error: the error's own description where it has one.
    static func sentence(for error: any Error) -> String {
        switch error {
        case let error as LaunchError: error.description
        case let error as LocalizedError: error.errorDescription ?? "\(error)"
        default: "\(error)"
        }
    }
}
