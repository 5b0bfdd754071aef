import RosterKit

/// Compares two directories: who is where, matched by a key (`ReviewKey`, folded as the
/// directories fold it), and what differs. The reads of both sides run at once; the comparison
/// itself is one pass over each side with a dictionary of the source's keys.
public enum AccessReview {
    /// Both sides read and compared, with how long the comparison took (the reads have their
    /// own in their progress).
    public struct Outcome: Sendable {
        public var findings: ReviewFindings
        public var source: WorkProgress
        public var target: WorkProgress
        public var compareTime: Duration
    }

    /// Reads `source` and `target` at once (each side's progress told as its pages come),
    /// then compares them. A failure of either side cancels the other and is thrown.
    public static func run(
        source: ReviewSide, target: ReviewSide,
        progress: @escaping @Sendable (ReviewSide.Position, WorkProgress) -> Void = { _, _ in }
    ) async throws -> Outcome {
        async let sourceRead = source.read { progress(.source, $0) }
        async let targetRead = target.read { progress(.target, $0) }
        let (read, other) = try await (sourceRead, targetRead)
        let clock = ContinuousClock()
        let start = clock.now
        let findings = compare(source: read, target: other)
        return Outcome(findings: findings, source: read.progress, target: other.progress, compareTime: start.duration(to: clock.now))
    }

    public static func compare(source: ReviewSide.Read, target: ReviewSide.Read) -> ReviewFindings {
        compare(source: source.people, target: target.people, compareRoles: source.hasRoles && target.hasRoles)
    }

    /// The four lists from people given one by one (packed first: one way to compare).
    public static func compare(source: [ReviewPerson], target: [ReviewPerson], compareRoles: Bool) -> ReviewFindings {
        compare(source: ReviewPeople(source), target: ReviewPeople(target), compareRoles: compareRoles)
    }

    /// The four lists. Roles are compared only where both directories have them. Keys are
    /// matched by their bytes through an index into the source's own storage; only the people
    /// of a finding are unpacked.
    public static func compare(source: ReviewPeople, target: ReviewPeople, compareRoles: Bool) -> ReviewFindings {
        var findings = ReviewFindings()
        findings.sourceCount = source.count
        findings.targetCount = target.count
        // The source's person for each key: an active one before any other of the same key.
        let index = ReviewPeople.KeyIndex(source)
        findings.sourceDuplicates = index.duplicates
        // Which of the index's people a target account matched (by position in the source).
        var matched = [Bool](repeating: false, count: source.count)
        for position in target.indices {
            guard let held = index.position(ofKeyAt: position, in: target, indexed: source) else {
                let account = target[position]
                let finding = ReviewFindings.Finding(key: account.key, source: nil, target: account)
                findings.onlyInTarget.append(finding)
                if account.status == .active { findings.leavers.append(finding) }
                continue
            }
            matched[held] = true
            findings.matched += 1
            let isLeaver = target.status(at: position) == .active && source.status(at: held) == .suspended
            let differences = differences(source, held, target, position, compareRoles: compareRoles)
            guard isLeaver || !differences.isEmpty else { continue }
            let person = source[held], account = target[position]
            if isLeaver { findings.leavers.append(.init(key: account.key, source: person, target: account)) }
            if !differences.isEmpty {
                findings.drift.append(.init(key: account.key, source: person, target: account, differences: differences))
            }
        }
        for position in source.indices {
            if let held = index.position(ofKeyAt: position, in: source, indexed: source), matched[held] { continue }
            let person = source[position]
            findings.onlyInSource.append(.init(key: person.key, source: person, target: nil))
        }
        findings.leavers.sort(by: ordered)
        findings.onlyInTarget.sort(by: ordered)
        findings.onlyInSource.sort(by: ordered)
        findings.drift.sort(by: ordered)
        return findings
    }

    /// Which compared fields differ between a person and their account: the same bytes are
    /// the same field; other bytes are unpacked and compared folded.
    static func differences(_ source: ReviewPeople, _ person: Int, _ target: ReviewPeople, _ account: Int, compareRoles: Bool) -> [String] {
        var result: [String] = []
        if !source.same(.name, at: person, as: target, at: account),
           !ReviewFold.sameName(source.string(.name, at: person), target.string(.name, at: account)) { result.append("name") }
        if !source.same(.email, at: person, as: target, at: account),
           ReviewFold.key(source.string(.email, at: person)) != ReviewFold.key(target.string(.email, at: account)) { result.append("email") }
        if compareRoles, let role = source.role(at: person), let other = target.role(at: account), role != other { result.append("role") }
        return result
    }

    /// By key, then by id, so a report comes out the same from one run to the next.
    static func ordered(_ a: ReviewFindings.Finding, _ b: ReviewFindings.Finding) -> Bool {
        if a.key != b.key { return a.key < b.key }
        return (a.target?.id ?? a.source?.id ?? "") < (b.target?.id ?? b.source?.id ?? "")
    }
}
