/// Waits for a condition nothing announces (a process's output, a file, a server's state) by
/// polling it every `poll`, up to `timeout` stretched by `TestTimeScale`. A guard against
/// hanging, not a delay: the wait ends as soon as the condition holds. The last check is made
/// after the deadline, so a condition that holds then still counts.
public func eventually(
    within timeout: Duration = .seconds(10), poll: Duration = .milliseconds(5), isolation: isolated (any Actor)? = #isolation,
    _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout.scaledForTests
    while clock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: poll)
    }
    return try await condition()
}

/// `eventually`, throwing `TimedOut` (naming `what`) when the condition never held.
public func waitUntil(
    within timeout: Duration = .seconds(20), poll: Duration = .milliseconds(50), _ what: String,
    isolation: isolated (any Actor)? = #isolation, _ condition: () async throws -> Bool
) async throws {
    guard try await eventually(within: timeout, poll: poll, isolation: isolation, condition) else {
        throw TimedOut(description: "timed out after \(timeout.scaledForTests) waiting for \(what)")
    }
}

public struct TimedOut: Error, CustomStringConvertible {
    public var description: String
}

/// Waits by yielding until `condition` holds on the main actor, for a view model's work that
/// runs as tasks on the main actor and that no event announces ("the newest results are on
/// screen while an older call is still held"): each yield lets those tasks run. Past
/// `maximumYields` it waits by time (`eventually`): on a loaded machine the work may wait on
/// another executor (an actor's directory) for longer than the yields take. False if the
/// condition never holds.
@MainActor
public func eventuallyAfterYields(maximumYields: Int = 200_000, _ condition: @MainActor () -> Bool) async -> Bool {
    for _ in 0..<maximumYields {
        if condition() { return true }
        await Task.yield()
    }
    return await eventually { condition() }
}
