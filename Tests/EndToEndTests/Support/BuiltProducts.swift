import Foundation

/// The executables `swift build` made, found next to the running test bundle (the tests build
/// nothing themselves; `make test` builds every product first).
enum BuiltProducts {
    static var directory: URL {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return executable.deletingLastPathComponent()
    }

    static func url(of name: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw EndToEndError("\(name) is not built at \(url.path); run `swift build` (make test does) before the end-to-end tests.")
        }
        return url
    }
}

struct EndToEndError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Waits for `condition` by polling, up to `timeout` (a guard against hanging, not a delay:
/// the wait ends as soon as the condition holds).
func waitUntil(timeout: Duration = .seconds(20), poll: Duration = .milliseconds(50), _ what: String, _ condition: () throws -> Bool) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while clock.now < deadline {
        if try condition() { return }
        try await Task.sleep(for: poll)
    }
    if try condition() { return }
    throw EndToEndError("timed out after \(timeout) waiting for \(what)")
}
