import RosterKit

/// One `AsyncHTTPTransport` for a whole test process. A transport must be shut down before it
/// goes away, so tests that do not test the transport's own life share this one, which lives
/// as long as the process.
public enum TestTransport {
    /// Its connect timeout is 30 s, not the default 5: under the whole parallel suite on two
    /// cores (PostgreSQL clusters included), an in-process server on loopback was seen to take
    /// longer than 5 s to accept, and that is the machine's load, not what a test checks.
    public static let shared: AsyncHTTPTransport = {
        do {
            return try AsyncHTTPTransport(options: TransportOptions(connectTimeout: Duration.seconds(30).scaledForTests))
        } catch {
            fatalError("the default transport options cannot fail: \(error)")
        }
    }()
}

extension TestTransport {
    /// Runs `body` with a transport of its own, shut down afterwards however `body` ends.
    @discardableResult
    public static func with<T: Sendable>(
        _ options: TransportOptions, _ body: (AsyncHTTPTransport) async throws -> T
    ) async throws -> T {
        let transport = try AsyncHTTPTransport(options: options)
        do {
            let result = try await body(transport)
            await transport.shutdown()
            return result
        } catch {
            await transport.shutdown()
            throw error
        }
    }
}
