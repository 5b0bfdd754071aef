import RosterApp
import RosterCSV
import RosterKit

/// The export dialog and the import screen, as plain content.
extension Presenter {
    func dialog(_ export: ExportModel) -> DialogContent {
        let progress = export.progress
        switch export.phase {
        case .running:
            let bar = ProgressBar.text(progress.fraction ?? 0, width: 24)
            return DialogContent(title: "Exporting users", message: "To \(export.destination)",
                                 detail: "\(bar) \(progress.summary)", actions: [("Esc", "Stop and remove the file")], isError: false)
        case .finished:
            let count = CountFormat.grouped(progress.done)
            return DialogContent(title: "Export done", message: "Exported \(count) \(progress.done == 1 ? "user" : "users") to \(export.destination)",
                                 detail: "Columns: \(export.columns.map(\.rawValue).joined(separator: ", "))",
                                 actions: [("Enter", "Close")], isError: false)
        case .cancelled:
            return DialogContent(title: "Export stopped", message: "Nothing was written.", actions: [("Esc", "Close")], isError: false)
        case .failed(let reason):
            return DialogContent(title: "Export failed", message: reason, actions: [("r", "Retry"), ("Esc", "Close")], isError: true)
        }
    }

    func importContent(_ model: ImportModel, visible: Int) -> ImportContent {
        let plan = model.plan
        let file = plan.path.split(separator: "/").last.map(String.init) ?? plan.path
        let bad = plan.badCount == 0 ? "no bad rows" : "\(CountFormat.grouped(plan.badCount)) bad \(plan.badCount == 1 ? "row" : "rows") (not sent)"
        let summary: String
        let actions: [Hint]
        let title: String
        switch model.phase {
        case .preview:
            title = "Import \(file) — preview, nothing sent yet"
            summary = "\(CountFormat.grouped(plan.validCount)) to create · \(bad)"
            actions = plan.validCount > 0
                ? [Hint("Enter", "Create \(CountFormat.grouped(plan.validCount))"), Hint("j/k", "Scroll"), Hint("Esc", "Cancel")]
                : [Hint("j/k", "Scroll"), Hint("Esc", "Close")]
        case .running, .stopping:
            title = model.phase == .stopping ? "Import \(file) — stopping after the requests in flight" : "Import \(file) — creating"
            summary = counts(model) + " · \(bad)"
            actions = model.phase == .stopping ? [Hint("j/k", "Scroll")] : [Hint("Esc", "Stop"), Hint("j/k", "Scroll")]
        case .finished:
            title = model.notSentCount > 0 ? "Import \(file) — stopped" : "Import \(file) — done"
            summary = counts(model) + (model.notSentCount > 0 ? " · \(CountFormat.grouped(model.notSentCount)) not sent" : "") + " · \(bad)"
            actions = [Hint("Enter", "Close"), Hint("j/k", "Scroll")]
        }
        let first = min(model.scrollOffset, max(0, plan.rows.count - 1))
        let rows = plan.rows.dropFirst(first).prefix(visible).map { row in rowContent(row, model: model) }
        var content = ImportContent(title: title, summary: summary, rows: Array(rows), firstRow: first,
                                    totalRows: plan.rows.count, actions: actions)
        switch model.phase {
        case .running, .stopping:
            content.progress = (model.progress.fraction ?? 0, model.progress.summary)
        case .finished:
            if let path = model.reportPath {
                content.note = "Report: \(path)"
            } else if let problem = model.reportProblem {
                content.note = problem
                content.noteIsError = true
            }
        case .preview:
            break
        }
        return content
    }

    private func counts(_ model: ImportModel) -> String {
        var parts = ["\(CountFormat.grouped(model.createdCount)) created"]
        if model.existingCount > 0 { parts.append("\(CountFormat.grouped(model.existingCount)) already there") }
        parts.append("\(CountFormat.grouped(model.failedCount)) failed")
        return parts.joined(separator: " · ")
    }

    private func rowContent(_ row: ImportRow, model: ImportModel) -> ImportRowContent {
        let verdict: String
        let tone: ImportRowContent.Tone
        if let problem = row.problem {
            (verdict, tone) = ("✗ \(problem)", .bad)
        } else if let outcome = model.outcomes[row.line] {
            switch outcome.kind {
            case .created(let id): (verdict, tone) = ("✓ created \(id)", .good)
            case .alreadyExists: (verdict, tone) = ("= already exists, skipped", .quiet)
            case .failed(let reason): (verdict, tone) = ("✗ \(reason)", .bad)
            case .invalid(let reason): (verdict, tone) = ("✗ \(reason)", .bad)
            case .notSent: (verdict, tone) = ("· not sent", .quiet)
            case .unanswered: (verdict, tone) = ("? sent, no answer", .quiet)
            }
        } else {
            switch model.phase {
            case .preview: (verdict, tone) = ("✓ to create", .good)
            case .running, .stopping: (verdict, tone) = ("…", .quiet)
            case .finished: (verdict, tone) = ("· not sent (stopped)", .quiet)
            }
        }
        return ImportRowContent(line: row.line, email: row.email, name: row.name, verdict: verdict, tone: tone)
    }
}
