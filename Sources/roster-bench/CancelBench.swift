import Foundation
import RosterKit
import RosterKitTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `roster-bench --cancel`: how long a cancelled request takes to end, at each stage, against
/// real loopback listeners: while connecting (a full accept queue), while waiting for the answer
/// (a server that never answers), and in the middle of the body. Target: 100 ms.
enum CancelBench {
    static func run(runs: Int = 21) async throws {
        let transport = try AsyncHTTPTransport()
        let stuck = try LoopbackListener(backlog: 0, accepting: false)
        let fillers = try stuck.fillAcceptQueue()
        let silent = try LoopbackListener { connection in connection.waitForClose() }
        let halfway = try LoopbackListener { connection in
            _ = connection.readRequest()
            connection.write("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n{\"partial\":")
            connection.waitForClose()
        }
        defer {
            fillers.forEach { close($0) }
            stuck.close()
            silent.close()
            halfway.close()
        }
        for (stage, listener) in [("connecting", stuck), ("waiting for the answer", silent), ("reading the body", halfway)] {
            var samples: [Double] = []
            for _ in 0..<runs {
                let request = TransportRequest(method: .get, url: URL(string: listener.url.absoluteString + "/api/v1/health")!)
                let task = Task { try await transport.send(request) }
                try await Task.sleep(for: .milliseconds(100))
                let clock = ContinuousClock()
                let start = clock.now
                task.cancel()
                _ = await task.result
                samples.append((clock.now - start).milliseconds)
            }
            samples.sort()
            let median = samples[samples.count / 2]
            let p90 = samples[Int(Double(samples.count - 1) * 0.9)]
            print(String(format: "cancel while %@: median %.2f ms, p90 %.2f ms, max %.2f ms over %d runs (target <= 100 ms: %@)",
                         stage, median, p90, samples.last ?? 0, runs, median <= 100 ? "met" : "MISSED"))
        }
        await transport.shutdown(waitingAtMost: .milliseconds(200))
    }
}
