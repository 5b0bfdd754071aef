import Foundation
import Logging
import RosterApp
import RosterCSV
import RosterJournal
import RosterKit

/// `roster-bench --import BASE_URL TOKEN [ROWS] [RUNS]`: a CSV import of ROWS rows through the
/// app's own path (the preview, then the run on the work runner, journalled), against a running
/// roster-server; in each run, first the baseline, ROWS creates sent straight through the
/// `Directory` seam four at a time (what the server takes, with no file, comparison or journal),
/// then a Google-template file of ROWS new users (preview and import), then a file renaming
/// those same users (preview and import: updates). Prints each step's median time, requests a
/// second and peak memory (the process's, reset before each step).
@MainActor
enum ImportBench {
    struct Sample {
        var seconds: Double
        var requests: Int
        var peakMB: Double
    }

    static func run(baseURL: URL, token: String, rows: Int, runs: Int) async throws {
        let silent = Logger(label: "roster.bench") { _ in SwiftLogNoOpLogHandler() }
        let transport = try AsyncHTTPTransport()
        let directory = RosterAPIDirectory(client: APIClient(baseURL: baseURL, token: token, transport: transport, logger: silent))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("roster-import-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var samples: [String: [Sample]] = [:]
        let seeded = try await directory.listUsers(UserQuery(perPage: 1)).total
        print("import bench: \(rows) rows, \(runs) runs, against \(seeded) users already there")

        for run in 1...runs {
            samples["baseline", default: []].append(try await baseline(rows: rows, run: run, directory: directory))
            let header = "First Name [Required],Last Name [Required],Email Address [Required],Password [Required],Org Unit Path [Required]\r\n"
            func file(_ name: String, surname: String) throws -> String {
                var text = header
                for number in 1...rows { text += "Person\(number),\(surname),import-\(run)-\(number)@bench.example,Secret-\(number)!,/\r\n" }
                let path = folder.appendingPathComponent(name).path
                try text.write(toFile: path, atomically: true, encoding: .utf8)
                return path
            }
            let app = AppModel(directory: directory, perPage: 50)
            app.recorder = ChangeRecorder(journal: try ChangeJournal(path: folder.appendingPathComponent("journal-\(run).sqlite").path),
                                          connection: "bench")
            for (step, surname) in [("create", "New"), ("update", "Renamed")] {
                let path = try file("\(step)-\(run).csv", surname: surname)
                let (model, preview) = try await measure { try await previewFile(path, app: app) }
                samples["\(step) preview", default: []].append(Sample(seconds: preview.seconds, requests: model.comparisonRequests, peakMB: preview.peakMB))
                let expected = step == "create" ? model.newCount : model.changedCount
                guard expected == rows else { throw BenchError("the \(step) preview found \(expected) of \(rows) rows to send") }
                let (_, sent) = try await measure {
                    app.confirm()
                    await app.activity.waitForLoads()
                }
                guard model.failedCount == 0, model.createdCount + model.updatedCount == rows else {
                    throw BenchError("the \(step) import sent \(model.createdCount + model.updatedCount) of \(rows), \(model.failedCount) failed")
                }
                samples["\(step) import", default: []].append(Sample(seconds: sent.seconds, requests: model.progress.requests, peakMB: sent.peakMB))
                app.close()
            }
        }
        await transport.shutdown()
        for step in ["baseline", "create preview", "create import", "update preview", "update import"] {
            let list = samples[step] ?? []
            let seconds = median(list.map(\.seconds)), requests = median(list.map { Double($0.requests) })
            print(String(format: "import_%@: median %.2f s, %.0f requests, %.0f requests/s, %.0f rows/s, peak %.1f MB",
                         step.replacingOccurrences(of: " ", with: "_"), seconds, requests, requests / seconds, Double(rows) / seconds,
                         median(list.map(\.peakMB))))
        }
    }

    /// ROWS creates, four at a time, straight through the seam.
    static func baseline(rows: Int, run: Int, directory: any Directory) async throws -> Sample {
        let (_, sample) = try await measure {
            try await withThrowingTaskGroup(of: Void.self) { group in
                var next = 1
                func add() {
                    let number = next
                    next += 1
                    group.addTask {
                        _ = try await directory.createUser(UserDraft(name: "Base \(number)", email: "base-\(run)-\(number)@bench.example"))
                    }
                }
                for _ in 0..<min(4, rows) { add() }
                while try await group.next() != nil { if next <= rows { add() } }
            }
        }
        return Sample(seconds: sample.seconds, requests: rows, peakMB: sample.peakMB)
    }

    static func previewFile(_ path: String, app: AppModel) async throws -> ImportModel {
        app.startImport()
        app.editLine(.deleteToStart)
        app.editLine(.insert(path))
        app.commitLine()
        guard case .importer(let model) = app.topScreen else { throw BenchError(app.line?.problem ?? "no preview") }
        await app.activity.waitForLoads()
        guard model.comparison == .ready else { throw BenchError("the comparison: \(model.comparison)") }
        return model
    }

    /// Runs `body`, with its wall time and the process's peak resident memory meanwhile.
    static func measure<T>(_ body: () async throws -> T) async throws -> (T, (seconds: Double, peakMB: Double)) {
        resetPeakMemory()
        let clock = ContinuousClock()
        let start = clock.now
        let result = try await body()
        return (result, ((clock.now - start).seconds, peakMemoryMB()))
    }

    /// Linux: writing 5 to clear_refs resets VmHWM, the peak resident set.
    static func resetPeakMemory() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    static func peakMemoryMB() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kilobytes / 1024
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    struct BenchError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
