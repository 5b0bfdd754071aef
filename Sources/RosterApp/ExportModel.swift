import Observation
import RosterCSV
import RosterKit

/// An export of the list as the person sees it (search, filters, sort) to a CSV file, page
/// by page: each page is written as it arrives, so memory stays flat whatever the size. The
/// file appears at its name only when complete; Esc stops at once and removes what was
/// written (`CSVFileSink`).
@MainActor
@Observable
public final class ExportModel {
    public enum Phase: Equatable, Sendable {
        case running
        case finished
        /// Esc: stopped, nothing left behind.
        case cancelled
        case failed(String)
    }

    /// The most users a page may hold: the fewer requests, the sooner it is done.
    public static let defaultPageSize = UserQuery.perPageRange.upperBound

    public let destination: String
    public let query: UserQuery
    public let columns: [CSVColumn]
    public private(set) var phase: Phase = .running
    public private(set) var progress = WorkProgress(total: 0, isTotalKnown: false)
    /// Told when the run ends, whichever way.
    @ObservationIgnored public var onEnd: (@MainActor (ExportModel) -> Void)?

    @ObservationIgnored private let directory: any Directory
    @ObservationIgnored private let activity: Activity
    @ObservationIgnored private var work: TrackedTask?
    @ObservationIgnored private var sink: CSVFileSink?

    /// - Parameter query: the list's query; paging is the export's own.
    init(query: UserQuery, columns: [CSVColumn], destination: String, directory: any Directory, activity: Activity,
         pageSize: Int = ExportModel.defaultPageSize) {
        var query = query
        query.page = 1
        query.perPage = min(max(pageSize, UserQuery.perPageRange.lowerBound), UserQuery.perPageRange.upperBound)
        self.query = query
        self.columns = columns
        self.destination = destination
        self.directory = directory
        self.activity = activity
    }

    public var isRunning: Bool { phase == .running }

    /// A failed export can be run again from the start (nothing of it was kept).
    public var canRetry: Bool {
        if case .failed = phase { true } else { false }
    }

    func start() {
        let sink: CSVFileSink
        do {
            sink = try CSVFileSink(destination: destination)
        } catch {
            end(.failed(error.description))
            return
        }
        self.sink = sink
        let encoder = UserCSVEncoder(columns: columns)
        let stopwatch = Stopwatch(clock: activity.clock)
        let directory = self.directory
        let query = self.query
        work = activity.startLoad { [weak self] in
            do {
                try sink.write(encoder.header)
                try await EveryPage(directory: directory, query: query.atPage(1)).read { page in
                    guard let self, self.phase == .running else { return false }
                    try sink.write(encoder.records(for: page.items))
                    if !page.totalIsLowerBound {
                        self.progress.total = page.total
                        self.progress.isTotalKnown = true
                    }
                    self.progress.succeeded += page.items.count
                    self.progress.requests += 1
                    self.progress.elapsed = stopwatch.elapsed()
                    return true
                }
                guard self?.phase == .running else { return }
                try sink.finish()
                guard let self else { return }
                if !progress.isTotalKnown {
                    progress.total = progress.done
                    progress.isTotalKnown = true
                }
                end(.finished)
            } catch let error as CSVFileError {
                sink.discard()
                self?.end(.failed(error.description))
            } catch {
                sink.discard()
                guard let self, let failure = APIError.shown(for: error), phase == .running else { return }
                end(.failed("\(failure.errorDescription ?? "The server did not answer.") Nothing was written."))
            }
        }
    }

    /// Esc while running: stops now and removes the partial file.
    public func cancel() {
        guard phase == .running else { return }
        work?.cancel()
        work = nil
        sink?.discard()
        end(.cancelled)
    }

    private func end(_ phase: Phase) {
        guard self.phase == .running else { return }
        self.phase = phase
        work = nil
        sink = nil
        onEnd?(self)
    }
}
