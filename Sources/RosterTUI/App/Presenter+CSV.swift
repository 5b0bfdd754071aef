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
        if model.phase == .mapping { return mappingContent(model, file: file, visible: visible) }
        let bad = plan.badCount == 0 ? "no bad rows" : "\(CountFormat.grouped(plan.badCount)) bad (not sent)"
        var summary: String
        let actions: [Hint]
        let title: String
        var note: String?
        switch model.phase {
        case .preview, .mapping:
            title = "Import \(file) — preview, nothing sent yet"
            switch model.comparison {
            case .waitingForMapping: summary = plan.mapping.missing ?? ""
            case .comparing: summary = "Comparing \(CountFormat.grouped(plan.validCount)) rows with the directory… · \(bad)"
            case .failed(let reason): summary = "Could not compare with the directory: \(reason)"
            case .ready: summary = threeCounts(model) + " · \(bad)"
            }
            var keys = model.comparison == .ready && model.toSendCount > 0 ? [Hint("Enter", sendLabel(model))] : []
            keys += [Hint("c", model.mode.rawValue), Hint("m", "Map columns"), Hint("Tab", "List: \(model.listing.rawValue)"),
                     Hint("Esc", "Cancel")]
            actions = keys
            if let problem = model.mappingProblem {
                note = problem
            } else if !model.missingGroups.isEmpty {
                note = "Groups that do not exist yet: \(model.missingGroups.joined(separator: ", "))"
            } else if !plan.mapping.ignored.isEmpty {
                note = "Ignored columns: \(plan.mapping.ignoredNotes.joined(separator: ", ")) (m to map)"
            }
        case .askingGroups:
            title = "Import \(file) — create the missing groups?"
            summary = "Not in the directory: \(model.missingGroups.joined(separator: ", "))"
            actions = [Hint("y", "Create them"), Hint("n", "Import without them"), Hint("Esc", "Back")]
        case .running, .stopping:
            title = model.phase == .stopping ? "Import \(file) — stopping after the requests in flight" : "Import \(file) — sending"
            summary = counts(model) + " · \(bad)"
            actions = model.phase == .stopping ? [Hint("j/k", "Scroll")] : [Hint("Esc", "Stop"), Hint("j/k", "Scroll")]
        case .finished:
            title = model.notSentCount > 0 ? "Import \(file) — stopped" : "Import \(file) — done"
            summary = counts(model) + (model.notSentCount > 0 ? " · \(CountFormat.grouped(model.notSentCount)) not sent" : "") + " · \(bad)"
            actions = [Hint("Enter", "Close"), Hint("j/k", "Scroll")]
        }
        let listed = model.listedRows
        let first = min(model.scrollOffset, max(0, listed.count - 1))
        let rows = listed.dropFirst(first).prefix(visible).map { row in rowContent(row, model: model) }
        var content = ImportContent(title: title, summary: summary, rows: Array(rows), firstRow: first,
                                    totalRows: listed.count, actions: actions)
        content.note = note
        content.noteIsError = model.mappingProblem != nil
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
        case .preview, .mapping, .askingGroups:
            break
        }
        return content
    }

    /// "30 new · 15 changed · 5 unchanged"
    private func threeCounts(_ model: ImportModel) -> String {
        "\(CountFormat.grouped(model.newCount)) new · \(CountFormat.grouped(model.changedCount)) changed · "
            + "\(CountFormat.grouped(model.unchangedCount)) unchanged"
    }

    private func sendLabel(_ model: ImportModel) -> String {
        let count = CountFormat.grouped(model.toSendCount)
        return switch model.mode {
        case .both: "Create and update \(count)"
        case .createOnly: "Create \(count)"
        case .updateOnly: "Update \(count)"
        }
    }

    /// `m`: one line per column, its header and the field it fills; the cursor on one.
    private func mappingContent(_ model: ImportModel, file: String, visible: Int) -> ImportContent {
        let mapping = model.editedMapping ?? model.plan.mapping
        let first = max(0, min(model.mappingCursor - visible + 1, mapping.headers.count - visible))
        let rows = mapping.headers.indices.dropFirst(max(0, first)).prefix(visible).map { column in
            let field = mapping.fields[column]
            return ImportRowContent(line: column + 1, email: mapping.headers[column], name: column == model.mappingCursor ? "◀ ▶" : "",
                                    verdict: field.map { "→ \($0.label)" } ?? "· ignored", tone: field == nil ? .quiet : .good)
        }
        var content = ImportContent(
            title: "Import \(file) — map the columns", summary: mapping.missing ?? "Each column's field: h/l (←/→) changes the one under the cursor",
            rows: Array(rows), firstRow: max(0, first), totalRows: mapping.headers.count,
            actions: [Hint("Enter", "Use this mapping"), Hint("h/l", "Field"), Hint("j/k", "Column"), Hint("Esc", "Back")])
        content.columnTitles = ["Col", "Header", "", "Field"]
        content.selectedLine = model.mappingCursor + 1
        return content
    }

    private func counts(_ model: ImportModel) -> String {
        var parts = ["\(CountFormat.grouped(model.createdCount)) created", "\(CountFormat.grouped(model.updatedCount)) updated"]
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
            let note = outcome.note.isEmpty ? "" : " (\(outcome.note))"
            switch outcome.kind {
            case .created(let id): (verdict, tone) = ("✓ created \(id)\(note)", .good)
            case .updated(_, let changes): (verdict, tone) = ("✓ updated: \(changes)\(note)", .good)
            case .unchanged: (verdict, tone) = ("= unchanged", .quiet)
            case .skipped(let reason): (verdict, tone) = ("· skipped: \(reason)", .quiet)
            case .alreadyExists: (verdict, tone) = ("= already exists, skipped", .quiet)
            case .failed(let reason): (verdict, tone) = ("✗ \(reason)", .bad)
            case .invalid(let reason): (verdict, tone) = ("✗ \(reason)", .bad)
            case .notSent: (verdict, tone) = ("· not sent", .quiet)
            case .unanswered: (verdict, tone) = ("? sent, no answer", .quiet)
            }
        } else if model.phase == .running || model.phase == .stopping {
            (verdict, tone) = ("…", .quiet)
        } else if model.phase == .finished {
            (verdict, tone) = ("· \(ImportOutcome(line: row.line, email: row.email, kind: .notSent).label)", .quiet)
        } else {
            switch model.verdicts[row.line] {
            case nil: (verdict, tone) = ("…", .quiet)
            case .new?:
                if row.draft == nil { (verdict, tone) = ("✗ new user without a name or email", .bad) }
                else if model.mode.creates { (verdict, tone) = ("+ new", .good) }
                else { (verdict, tone) = ("· new, skipped (update only)", .quiet) }
            case .changed(_, _, _)?:
                let text = model.verdicts[row.line]?.changeText ?? ""
                (verdict, tone) = model.mode.updates ? ("~ \(text)", .good) : ("· changes skipped (create only): \(text)", .quiet)
            case .unchanged?: (verdict, tone) = ("= unchanged", .quiet)
            }
        }
        return ImportRowContent(line: row.line, email: row.email.isEmpty ? (row.login ?? "") : row.email, name: row.name ?? "",
                                verdict: verdict, tone: tone)
    }
}
