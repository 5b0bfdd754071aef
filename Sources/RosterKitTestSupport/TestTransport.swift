import RosterKit

/// One `AsyncHTTPTransport` for a whole test process. A transport must be shut down before it
/// goes away, so tests that do not test the transport's own life share this one, which lives
/// as long as the process.
public enum TestTransport {
    public static let shared: AsyncHTTPTransport = {
        do {
            return try AsyncHTTPTransport()
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
