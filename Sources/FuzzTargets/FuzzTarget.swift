import Foundation

/// One libFuzzer target: a parser fed the fuzzer's bytes, and the checks its result must pass
/// beyond "no crash" (a round trip, an agreement with a second reader, an invariant).
struct FuzzTarget: Sendable {
    let name: String
    let run: @Sendable ([UInt8]) -> Void

    /// Every target, by the name `make fuzz` gives it (and its seed corpus folder, fuzz/corpus/NAME).
    static let all: [FuzzTarget] = ServerTargets.all + ClientTargets.all

    static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}

/// A failed check is a crash to libFuzzer: it saves the input as `crash-…` and stops.
func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String) {
    guard !condition else { return }
    FileHandle.standardError.write(Data("fuzz check failed: \(message())\n".utf8))
    abort()
}
