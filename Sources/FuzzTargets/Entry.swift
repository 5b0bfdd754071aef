import Foundation
import NIOConcurrencyHelpers

/// The target this run feeds; set once, before libFuzzer starts.
private let selected = NIOLockedValueBox<FuzzTarget?>(nil)

/// `roster-fuzz TARGET [libFuzzer options and corpus folders…]` under `make fuzz` (built with
/// -sanitize=fuzzer,address and -DFUZZING): libFuzzer's driver runs TARGET. In an ordinary
/// build, `roster-fuzz TARGET FILE…` runs each file through the target's checks once (a crash
/// `make fuzz` saved, replayed), and `roster-fuzz --list` names the targets.
@main
enum FuzzMain {
    static func main() {
        var arguments = CommandLine.arguments
        if arguments.count > 1, arguments[1] == "--list" {
            print(FuzzTarget.all.map(\.name).joined(separator: "\n"))
            return
        }
        // The target is the first argument, or FUZZ_TARGET: libFuzzer runs this program again
        // without the argument for -minimize_crash and -merge.
        if arguments.count > 1, FuzzTarget.named(arguments[1]) != nil {
            setenv("FUZZ_TARGET", arguments.remove(at: 1), 1)
        }
        guard let target = ProcessInfo.processInfo.environment["FUZZ_TARGET"].flatMap(FuzzTarget.named) else {
            FileHandle.standardError.write(Data("usage: roster-fuzz TARGET … (targets: \(FuzzTarget.all.map(\.name).joined(separator: ", ")))\n".utf8))
            exit(2)
        }
        selected.withLockedValue { $0 = target }
        #if FUZZING
        // Every seed once before libFuzzer counts allocations: what a target builds on first use
        // (static lets, runtime metadata) lives on in globals whose Swift enums and strings keep
        // pointers with tag bits LeakSanitizer cannot see, so it would call them leaks.
        for folder in arguments.dropFirst() where !folder.hasPrefix("-") {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
                FileManager.default.contents(atPath: folder + "/" + name).map { target.run([UInt8]($0)) }
            }
        }
        // libFuzzer reads its own options and folders from the rest of the arguments.
        var count = CInt(arguments.count)
        var pointers: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let status = pointers.withUnsafeMutableBufferPointer { buffer in
            var argv = buffer.baseAddress
            return LLVMFuzzerRunDriver(&count, &argv, fuzzOne)
        }
        // libFuzzer exits by itself; should its driver return, leave without the check at exit
        // that scripts/fuzz.sh turns off (leak_check_at_exit=0, see there).
        _exit(status)
        #else
        for path in arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
                exit(1)
            }
            target.run([UInt8](data))
        }
        print("\(target.name): \(arguments.count - 1) inputs passed")
        #endif
    }
}

#if FUZZING
/// One input through the selected target. -sanitize=fuzzer links libFuzzer's whole runtime, its
/// own `main` too, which names this function; SwiftPM points `main` at ours
/// (`--defsym main=roster_fuzz_main`), which hands this to the driver after taking its argument.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    selected.withLockedValue { $0 }?.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

/// libFuzzer's entry for a program with its own main (compiler-rt's FuzzerInterface.h).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
#endif
