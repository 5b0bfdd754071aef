import RosterKit

/// Role, status and group filters: one-key toggles and the filter line (`f`). The list asks
/// the server for the filtered users and keeps the filter for the session.
extension AppModel {
    /// How many groups a name lookup asks for: enough to say which ones a vague name matched.
    static let groupLookupLimit = 20

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
        guard listIdle else { return }
        filterField = TextFieldState(list.filter.lineText)
        filterProblem = nil
        isFiltering = true
    }

    public func editFilter(_ edit: TextEdit) {
        guard isFiltering else { return }
        var field = filterField
        if field.apply(edit) { filterProblem = nil }
        filterField = field
    }

    /// Esc: closes the line; the filter in force stays.
    public func cancelFilter() {
        guard isFiltering else { return }
        isFiltering = false
        filterProblem = nil
    }

    /// Enter: reads the line and applies it. A line that cannot be read stays open with the
    /// reason; a group is looked up by name first.
    public func commitFilter() {
        guard isFiltering else { return }
        let line: FilterLine
        do {
            line = try FilterLine.parse(filterField.text, traits: traits)
        } catch {
            filterProblem = error.message
            return
        }
        isFiltering = false
        filterProblem = nil
        let filter = ListFilter(role: line.role, status: line.status)
        guard let name = line.groupName else {
            list.setFilter(filter)
            return
        }
        if let current = list.filter.group, current.name.lowercased() == name.lowercased() {
            list.setFilter(ListFilter(role: line.role, status: line.status, group: current))
            return
        }
        lookUpGroup(named: name, then: filter, line: filterField.text)
    }

    private func lookUpGroup(named name: String, then filter: ListFilter, line: String) {
        groupLookup?.cancel()
        let directory = self.directory
        groupLookup = activity.startLoad { [weak self] in
            do {
                let found = try await directory.groups(named: name, limit: Self.groupLookupLimit)
                guard let self else { return }
                groupLookup = nil
                switch GroupMatch.pick(name, from: found) {
                case .found(let group):
                    var filter = filter
                    filter.group = group
                    list.setFilter(filter)
                case .problem(let message):
                    // Back to the line as typed, with what was wrong.
                    filterField = TextFieldState(line)
                    filterProblem = message
                    isFiltering = true
                }
            } catch {
                guard let self, let failure = APIError.shown(for: error) else { return }
                groupLookup = nil
                presentError(title: "Could not look up the group “\(name)”", error: failure) { [weak self] in
                    self?.lookUpGroup(named: name, then: filter, line: line)
                }
            }
        }
    }

    /// The value after `current` in `options`, and after the last, none (every user).
    static func next<Value: Equatable>(after current: Value?, in options: [Value]) -> Value? {
        guard let current, let index = options.firstIndex(of: current) else { return options.first }
        return index + 1 < options.count ? options[index + 1] : nil
    }
}

/// Which group a typed name means: the one named exactly so (any case), else the only match.
enum GroupMatch: Equatable {
    case found(GroupReference)
    case problem(String)

    static func pick(_ name: String, from groups: [GroupReference]) -> GroupMatch {
        if let exact = groups.first(where: { $0.name.lowercased() == name.lowercased() }) { return .found(exact) }
        switch groups.count {
        case 0: return .problem("No group is named “\(name)”.")
        case 1: return .found(groups[0])
        default:
            let names = groups.prefix(3).map(\.name).joined(separator: ", ")
            return .problem("\(groups.count) groups match “\(name)” (\(names)…): type the whole name.")
        }
    }
}
