/// Reads of one value that callers running at once share: a caller is answered by the next
/// read that starts after it asked, never by one already under way, so it sees everything
/// committed before its call, as a read of its own would. While a read runs, callers gather;
/// one read then answers them all.
///
/// Every cached list answer on PostgreSQL first reads the write generation, a round trip to
/// the database: at 8 connections those round trips, not the cache, bounded the cached first
/// page (27% of the HTTP floor).
actor SharedReads<Value: Sendable> {
    private let read: @Sendable () async throws -> Value
    private var reading = false
    /// Callers that asked since the running read started.
    private var waiting: [CheckedContinuation<Value, any Error>] = []

    init(_ read: @escaping @Sendable () async throws -> Value) {
        self.read = read
    }

    func value() async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            waiting.append(continuation)
            if !reading { startRead() }
        }
    }

    private func startRead() {
        reading = true
        let answered = waiting
        waiting = []
        let read = read
        Task {
            // Starts after every caller in `answered` asked.
            let result = await Result(catching: read)
            self.finish(answered, with: result)
        }
    }

    private func finish(_ answered: [CheckedContinuation<Value, any Error>], with result: Result<Value, any Error>) {
        for continuation in answered { continuation.resume(with: result) }
        reading = false
        if !waiting.isEmpty { startRead() }
    }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
