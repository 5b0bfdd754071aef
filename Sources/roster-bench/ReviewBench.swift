import Foundation
import Logging
import RosterApp
import RosterCSV
import RosterKit

/// `make bench-review`'s client side: the access review's reads and comparison against two
/// servers, beside the baseline the issue sets — two CSV exports of the same directories, at
/// once, each paged in the largest pages and written through the export's encoder and file
/// sink (what `ExportModel` does) — alternating, `runs` times each. Prints one line a run.
///
/// Usage: roster-bench --review SOURCE_URL SOURCE_TOKEN TARGET_URL TARGET_TOKEN RUNS FOLDER
enum ReviewBench {
    static func run(_ arguments: [String]) async throws {
        guard arguments.count == 6, let source = URL(string: arguments[0]), let target = URL(string: arguments[2]),
              let runs = Int(arguments[4]) else {
            FileHandle.standardError.write(Data("usage: roster-bench --review SOURCE_URL SOURCE_TOKEN TARGET_URL TARGET_TOKEN RUNS FOLDER\n".utf8))
            exit(2)
        }
        let silent = Logger(label: "roster.bench") { _ in SwiftLogNoOpLogHandler() }
        let transport = try AsyncHTTPTransport()
        func directory(_ url: URL, _ token: String) -> any Directory {
            RosterAPIDirectory(client: APIClient(baseURL: url, token: token, transport: transport, logger: silent))
        }
        let from = directory(source, arguments[1])
        let to = directory(target, arguments[3])
        let folder = arguments[5]
        let clock = ContinuousClock()
        for run in 1...runs {
            let reviewStart = clock.now
            let outcome = try await AccessReview.run(source: ReviewSide(directory: from, key: .email), target: ReviewSide(directory: to, key: .email))
            let review = reviewStart.duration(to: clock.now)
            let reads = max(outcome.source.elapsed, outcome.target.elapsed)
            let findings = outcome.findings

            let exportStart = clock.now
            async let first = export(from, to: folder + "/source-\(run).csv")
            async let second = export(to, to: folder + "/target-\(run).csv")
            let rows = try await (first, second)
            let exports = exportStart.duration(to: clock.now)
            print("run \(run): review_s=\(review.seconds) reads_s=\(reads.seconds) compare_ms=\(outcome.compareTime.milliseconds) "
                + "exports_s=\(exports.seconds) people=\(outcome.source.done)+\(outcome.target.done) exported=\(rows.0)+\(rows.1) "
                + "leavers=\(findings.leavers.count) only_target=\(findings.onlyInTarget.count) only_source=\(findings.onlyInSource.count) drift=\(findings.drift.count)")
        }
        await transport.shutdown()
    }

    /// One export as the app writes it: every page, each written to the file as it comes.
    static func export(_ directory: any Directory, to path: String) async throws -> Int {
        let sink = try CSVFileSink(destination: path)
        let encoder = UserCSVEncoder()
        try sink.write(encoder.header)
        var rows = 0
        var page = 1
        let perPage = UserQuery.perPageRange.upperBound
        while true {
            let answer = try await directory.listUsers(UserQuery(page: page, perPage: perPage))
            try sink.write(encoder.records(for: answer.items))
            rows += answer.items.count
            if answer.items.count < perPage || page * perPage >= answer.total { break }
            page += 1
        }
        try sink.finish()
        return rows
    }
}
