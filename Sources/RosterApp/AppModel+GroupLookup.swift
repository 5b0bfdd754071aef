import RosterKit

/// Finding the group a person typed on the line (a group filter, a bulk group action): the
/// group named exactly so (any case), else the only match.
extension AppModel {
    /// How many groups a name lookup asks for: enough to say which ones a vague name matched.
    static let groupLookupLimit = 20

    /// Looks the name up while the line stays open. Found: the line closes and `found` goes
    /// on with the group. A name that matches none or several stays on the line with why; a
    /// failed request goes to the error dialog, whose retry asks again.
    func lookUpGroup(named name: String, found: @escaping @MainActor (GroupReference) -> Void) {
        groupLookup?.cancel()
        let directory = self.directory
        groupLookup = activity.startLoad { [weak self] in
            do {
                let groups = try await directory.groups(named: name, limit: Self.groupLookupLimit)
                guard let self else { return }
                groupLookup = nil
                switch GroupMatch.pick(name, from: groups) {
                case .found(let group):
                    line = nil
                    found(group)
                case .problem(let message):
                    showLineProblem(message)
                }
            } catch {
                guard let self, let failure = APIError.shown(for: error) else { return }
                groupLookup = nil
                presentError(title: "Could not look up the group “\(name)”", error: failure) { [weak self] in
                    self?.lookUpGroup(named: name, found: found)
                }
            }
        }
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
