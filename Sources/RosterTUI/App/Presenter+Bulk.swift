import RosterApp
import RosterKit

/// The bulk run's progress line, its summary, and the one-key menus, as the views draw them.
extension Presenter {
    func progress(of run: BulkRun) -> ProgressContent {
        let progress = run.progress
        switch run.phase {
        case .finding:
            let marked = progress.total > 0 ? " / \(Format.count(progress.total))" : ""
            return ProgressContent(
                title: "Finding the users", fraction: progress.total > 0 ? Double(progress.found) / Double(progress.total) : nil,
                count: "\(Format.count(progress.found))\(marked)", detail: "", stopHint: "Esc stop")
        case .stopping:
            return ProgressContent(
                title: "Stopping", fraction: progress.fraction, count: "\(Format.count(progress.done)) / \(Format.count(progress.total))",
                detail: "the requests in flight finish", stopHint: nil)
        case .running, .finished:
            var detail: [String] = []
            if let wait = progress.rateLimitedFor {
                detail.append("waiting \(DurationFormat.duration(wait)): the server asked to slow down")
            } else {
                if let rate = progress.rate { detail.append(DurationFormat.rate(rate)) }
                if let left = progress.timeLeft, progress.done < progress.total { detail.append("\(DurationFormat.duration(left)) left") }
            }
            if progress.failed > 0 { detail.append("\(Format.count(progress.failed)) failed") }
            return ProgressContent(
                title: run.action.progressive, fraction: progress.fraction,
                count: "\(Format.count(progress.done)) / \(Format.count(progress.total))",
                detail: detail.joined(separator: " · "), stopHint: "Esc stop")
        }
    }

    func summary(of run: BulkRun) -> SummaryContent {
        let progress = run.progress
        let action = run.action
        if let error = run.findError {
            return SummaryContent(
                title: "\(action.title): nothing changed",
                lines: ["Could not read the marked users: \(error.errorDescription ?? "it failed.")", error.recoverySuggestion ?? ""]
                    .filter { !$0.isEmpty },
                failures: [], actions: [Hint("r", "Try again"), Hint("Esc", "Close")], isError: true)
        }
        let title: String
        if run.wasStopped {
            title = "Stopped: \(Format.count(progress.done)) of \(run.usersLabel) done"
        } else if progress.failed > 0 {
            title = "\(action.title): \(Format.count(progress.failed)) of \(run.usersLabel) failed"
        } else {
            title = "\(action.title): done"
        }
        var counts = ["\(Format.count(progress.succeeded)) \(action.pastParticiple)"]
        if progress.unchanged > 0 { counts.append("\(Format.count(progress.unchanged)) \(action.alreadyLabel)") }
        if progress.failed > 0 { counts.append("\(Format.count(progress.failed)) failed") }
        if run.notStarted > 0 { counts.append("\(Format.count(run.notStarted)) not started") }
        var timing = DurationFormat.duration(progress.elapsed)
        if let rate = progress.rate { timing += " · \(DurationFormat.rate(rate)) users" }
        if let requestRate = progress.requestRate {
            timing += " · \(Format.count(progress.requests)) requests, \(DurationFormat.rate(requestRate))"
        }
        var lines = [counts.joined(separator: " · "), timing]
        if run.wasStopped, run.notStarted > 0 {
            lines.append("Stopped with Esc: the \(Format.count(run.notStarted)) not started were not sent.")
        }
        let failures = run.failures.map { failure in
            (who: "\(failure.user.name) <\(failure.user.email)>", reason: failure.reason)
        }
        var actions: [Hint] = []
        if !failures.isEmpty { actions.append(Hint("r", failures.count == 1 ? "Retry the failure" : "Retry the \(Format.count(failures.count)) failures")) }
        actions.append(Hint("Esc", "Close"))
        return SummaryContent(title: title, lines: lines, failures: failures, actions: actions, isError: progress.failed > 0)
    }

    func choice(_ choice: ChoiceModel) -> ChoiceContent {
        ChoiceContent(title: choice.title, message: choice.message, options: choice.options.map { Hint(String($0.key), $0.label) },
                      escapeLabel: choice.escapeLabel)
    }
}
