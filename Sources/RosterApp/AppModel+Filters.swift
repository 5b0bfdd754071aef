import RosterKit

/// Role, status and group filters: one-key toggles and the filter line (`f`). The list asks
/// the server for the filtered users and keeps the filter for the session.
extension AppModel {
    /// `t`: the next status filter: every user, then each status this directory has.
    public func cycleStatusFilter() {
        guard listIdle else { return }
        var filter = list.filter
        filter.status = Self.next(after: filter.status, in: traits.statuses)
        list.setFilter(filter)
    }

    /// `o`: the next role filter, where the directory knows roles.
    public func cycleRoleFilter() {
        guard listIdle else { return }
        guard traits.hasRoles else {
            showStatus("This server has no roles to filter by", kind: .warning)
            return
        }
        var filter = list.filter
        filter.role = Self.next(after: filter.role, in: Role.known)
        list.setFilter(filter)
    }

    /// `F`: every user again (the search stays).
    public func clearFilters() {
        guard listIdle, !list.filter.isEmpty else { return }
        list.setFilter(ListFilter())
    }

    /// `f`: opens the filter line holding the filter in force.
    public func startFilter() {
        openLine(LineEditor(.filter, text: list.filter.lineText))
    }

    /// Enter on the filter line: reads it and applies it. A line that cannot be read stays
    /// open with the reason; a group is looked up by name first (AppModel+GroupLookup).
    func commitFilter(_ editor: LineEditor) {
        let parsed: FilterLine
        do {
            parsed = try FilterLine.parse(editor.text, traits: traits)
        } catch {
            showLineProblem(error.message)
            return
        }
        let filter = ListFilter(role: parsed.role, status: parsed.status)
        guard let name = parsed.groupName else {
            line = nil
            list.setFilter(filter)
            return
        }
        if let current = list.filter.group, current.name.lowercased() == name.lowercased() {
            line = nil
            list.setFilter(ListFilter(role: parsed.role, status: parsed.status, group: current))
            return
        }
        lookUpGroup(named: name) { [weak self] group in
            var filter = filter
            filter.group = group
            self?.list.setFilter(filter)
        }
    }

    /// The value after `current` in `options`, and after the last, none (every user).
    static func next<Value: Equatable>(after current: Value?, in options: [Value]) -> Value? {
        guard let current, let index = options.firstIndex(of: current) else { return options.first }
        return index + 1 < options.count ? options[index + 1] : nil
    }
}
