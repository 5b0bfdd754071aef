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

