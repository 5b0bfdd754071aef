import RosterKit

/// What an access review found: four lists of findings, each sorted by key.
///
/// The lists follow the question they answer, so they may overlap: an account active in the
/// target that matches nobody is a leaver (it still has access) and an orphan (only in the
/// target); a leaver whose name also changed is in drift too. Each report row names its list.
public struct ReviewFindings: Sendable {
    public enum List: String, Sendable, CaseIterable {
        /// Active in the target; suspended in the source or absent from it.
        case leavers
        /// In the target, matching nobody in the source (whatever their status).
        case onlyInTarget = "only-in-target"
        /// In the source, matching nobody in the target: not provisioned.
        case onlyInSource = "only-in-source"
        /// In both, with a different name, email or role.
        case drift

        /// As a header says it: "Leavers", "Only in target"...
        public var title: String {
            switch self {
            case .leavers: "Leavers"
            case .onlyInTarget: "Only in target"
            case .onlyInSource: "Only in source"
            case .drift: "Drift"
            }
        }
    }

    /// One person (or one account) of a list, with both sides as far as they exist.
    public struct Finding: Sendable, Equatable {
        public var key: String
        public var source: ReviewPerson?
        public var target: ReviewPerson?
        /// For drift: which fields differ ("name", "email", "role").
        public var differences: [String]

        public init(key: String, source: ReviewPerson?, target: ReviewPerson?, differences: [String] = []) {
            self.key = key
            self.source = source
            self.target = target
            self.differences = differences
        }
    }

    public var leavers: [Finding] = []
    public var onlyInTarget: [Finding] = []
    public var onlyInSource: [Finding] = []
    public var drift: [Finding] = []
    /// People read a side.
    public var sourceCount = 0
    public var targetCount = 0
    /// Pairs matched by key.
    public var matched = 0
    /// People of the source who share their key with another (the key should be unique: a
    /// duplicate is matched as one person, an active one first).
    public var sourceDuplicates = 0

    public init() {}

    public subscript(list: List) -> [Finding] {
        switch list {
        case .leavers: leavers
        case .onlyInTarget: onlyInTarget
        case .onlyInSource: onlyInSource
        case .drift: drift
        }
    }

    /// The four lists, the leavers first.
    public var lists: [(list: List, findings: [Finding])] {
        List.allCases.map { ($0, self[$0]) }
    }
}
