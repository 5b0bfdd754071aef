import RosterCSV
import RosterKit

/// CSV out (`x`) and in (`i`): the file prompt, the overwrite question, the export dialog and
/// the importer's screens.
extension AppModel {
    /// `x`: asks where to export the list as it is now (search, filters, sort).
    public func startExport() {
        guard listIdle else { return }
        openLine(LineEditor(.exportFile, label: " Export to: ", text: CSVFileNames.defaultExport()))
    }

    /// `i`: asks which file to import.
    public func startImport() {
        guard listIdle else { return }
        openLine(LineEditor(.importFile, label: " Import from: ", text: lastImportPath))
    }

    /// Enter on the file line: exports to the file (asking before replacing one), or reads
    /// the file to import and shows its preview. A name that cannot be used keeps the line open
    /// with the reason.
    func commitFile(_ editor: LineEditor) {
        let path = CSVFileNames.expand(editor.text)
        guard !path.isEmpty else { return showLineProblem("Type a file name.") }
        if CSVFileNames.isDirectory(path) { return showLineProblem("That is a folder; name a file in it.") }
        if editor.purpose == .exportFile {
            line = nil
            if CSVFileNames.exists(path) { askToReplace(path, typed: editor.text) } else { export(to: path) }
            return
        }
        do {
            // The attributes as far as the traits are known; the preview's comparison checks them again.
            let remembered = importMappings?.mapping(for: try ImportFileReader.headers(path: path), attributes: traits.attributes)
            let plan = try ImportFileReader.read(path: path, mapping: remembered, attributes: traits.attributes)
            guard !plan.rows.isEmpty else { return showLineProblem("\(path) has no users after its header.") }
            line = nil
            lastImportPath = editor.text
            showImport(plan)
        } catch {
            showLineProblem(error.description)
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
                openLine(LineEditor(.exportFile, label: " Export to: ", text: typed))
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
        let model = ImportModel(plan: plan, directory: directory, activity: activity, recorder: recorder, mappings: importMappings)
        model.onFinish = { [weak self] model in
            guard let self else { return }
            if quitsAfterImport {
                quit()
                return
            }
            if model.createdCount > 0 || model.updatedCount > 0 { list.refresh() }
        }
        push(.importer(model))
        model.compare()
    }
}
