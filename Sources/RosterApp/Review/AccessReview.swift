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

    /// The four lists. Roles are compared only where both directories have them.
    public static func compare(source: [ReviewPerson], target: [ReviewPerson], compareRoles: Bool) -> ReviewFindings {
        var findings = ReviewFindings()
        findings.sourceCount = source.count
        findings.targetCount = target.count
        // The source's person for each key: an active one before any other of the same key.
        var byKey: [String: Int] = [:]
        byKey.reserveCapacity(source.count)
        for (index, person) in source.enumerated() where !person.key.isEmpty {
            if let earlier = byKey[person.key] {
                findings.sourceDuplicates += 1
                if source[earlier].status != .active, person.status == .active { byKey[person.key] = index }
            } else {
                byKey[person.key] = index
            }
        }
        var matchedKeys = Set<String>(minimumCapacity: min(source.count, target.count))
        for account in target {
            guard !account.key.isEmpty, let index = byKey[account.key] else {
                let finding = ReviewFindings.Finding(key: account.key, source: nil, target: account)
                findings.onlyInTarget.append(finding)
                if account.status == .active { findings.leavers.append(finding) }
                continue
            }
            let person = source[index]
            matchedKeys.insert(account.key)
            findings.matched += 1
            if account.status == .active, person.status == .suspended {
                findings.leavers.append(.init(key: account.key, source: person, target: account))
            }
            let differences = differences(person, account, compareRoles: compareRoles)
            if !differences.isEmpty {
                findings.drift.append(.init(key: account.key, source: person, target: account, differences: differences))
            }
        }
        for person in source where person.key.isEmpty || !matchedKeys.contains(person.key) {
            findings.onlyInSource.append(.init(key: person.key, source: person, target: nil))
        }
        findings.leavers.sort(by: ordered)
        findings.onlyInTarget.sort(by: ordered)
        findings.onlyInSource.sort(by: ordered)
        findings.drift.sort(by: ordered)
        return findings
    }

    /// Which compared fields differ between a person and their account.
    static func differences(_ person: ReviewPerson, _ account: ReviewPerson, compareRoles: Bool) -> [String] {
        var result: [String] = []
        if !ReviewFold.sameName(person.name, account.name) { result.append("name") }
        if ReviewFold.key(person.email) != ReviewFold.key(account.email) { result.append("email") }
        if compareRoles, let role = person.role, let other = account.role, role != other { result.append("role") }
        return result
    }

    /// By key, then by id, so a report comes out the same from one run to the next.
    static func ordered(_ a: ReviewFindings.Finding, _ b: ReviewFindings.Finding) -> Bool {
        if a.key != b.key { return a.key < b.key }
        return (a.target?.id ?? a.source?.id ?? "") < (b.target?.id ?? b.source?.id ?? "")
    }
}
