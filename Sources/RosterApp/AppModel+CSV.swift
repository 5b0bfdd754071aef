import RosterCSV
import RosterKit

/// CSV out (`x`) and in (`i`): the file prompt, the overwrite question, the export dialog and
/// the importer's screens.
extension AppModel {
    /// `x`: asks where to export the list as it is now (search, filters, sort).
    public func startExport() {
        guard listIdle else { return }
        pathPrompt = PathPrompt(purpose: .export, field: TextFieldState(CSVFileNames.defaultExport()))
    }

    /// `i`: asks which file to import.
    public func startImport() {
        guard listIdle else { return }
        pathPrompt = PathPrompt(purpose: .importFile, field: TextFieldState(lastImportPath))
    }

    public func editPathPrompt(_ edit: TextEdit) {
        guard var prompt = pathPrompt else { return }
        if prompt.field.apply(edit) { prompt.problem = nil }
        pathPrompt = prompt
    }

    public func cancelPathPrompt() {
        pathPrompt = nil
    }

    /// Enter: exports to the file (asking before replacing one), or reads the file to import
    /// and shows its preview. A name that cannot be used keeps the line open with the reason.
    public func commitPathPrompt() {
        guard var prompt = pathPrompt else { return }
        let path = CSVFileNames.expand(prompt.field.text)
        guard !path.isEmpty else {
            prompt.problem = "Type a file name."
            pathPrompt = prompt
            return
        }
        if CSVFileNames.isDirectory(path) {
            prompt.problem = "That is a folder; name a file in it."
            pathPrompt = prompt
            return
        }
        switch prompt.purpose {
        case .export:
            if CSVFileNames.exists(path) {
                pathPrompt = nil
                askToReplace(path, typed: prompt.field.text)
            } else {
                pathPrompt = nil
                export(to: path)
            }
        case .importFile:
            do {
                let plan = try ImportFileReader.read(path: path)
                guard !plan.rows.isEmpty else {
                    prompt.problem = "\(path) has no users after its header."
                    pathPrompt = prompt
                    return
                }
                pathPrompt = nil
                lastImportPath = prompt.field.text
                showImport(plan)
            } catch {
                prompt.problem = error.description
                pathPrompt = prompt
            }
        }
    }

    private func askToReplace(_ path: String, typed: String) {
        let confirm = ConfirmModel(
            title: "Replace the file?", message: "\(path) already exists. Replace it with the export?",
            confirmLabel: "Replace", cancelLabel: "Choose another name", isDestructive: true, activity: activity)
        confirm.onFinish = { [weak self, weak confirm] outcome in
            guard let self, let confirm else { return }
            remove(.confirm(confirm))
            if outcome == .confirmed {
                export(to: path)
            } else {
                pathPrompt = PathPrompt(purpose: .export, field: TextFieldState(typed))
            }
        }
        push(.confirm(confirm))
    }

    /// Starts the export of the list's current query to `path`.
    func export(to path: String) {
        let query = list.filter.applied(to: UserQuery(
            perPage: list.perPage, search: list.searchText.isEmpty ? nil : list.searchText, sort: list.sort))
        export(query, columns: exportColumns, to: path)
    }

    /// `r` on a failed export: the same query and columns to the same file, from the start.
    func retryExport(_ failed: ExportModel) {
        guard failed.canRetry else { return }
        remove(.export(failed))
        export(failed.query, columns: failed.columns, to: failed.destination)
    }

    private func export(_ query: UserQuery, columns: [CSVColumn], to path: String) {
        let export = ExportModel(query: query, columns: columns, destination: path, directory: directory,
                                 activity: activity, pageSize: exportPageSize)
        export.onEnd = { [weak self] export in
            guard let self, export.phase == .cancelled else { return }
            remove(.export(export))
            showStatus("Export stopped; nothing was written", kind: .warning)
        }
        push(.export(export))
        export.start()
    }

    func showImport(_ plan: ImportPlan) {
        let model = ImportModel(plan: plan, directory: directory, activity: activity)
        model.onFinish = { [weak self] model in
            guard let self else { return }
            if quitsAfterImport {
                quit()
                return
            }
            if model.createdCount > 0 { list.refresh() }
        }
        push(.importer(model))
    }
}
