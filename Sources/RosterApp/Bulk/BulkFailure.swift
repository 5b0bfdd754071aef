import RosterKit

/// A user the action could not be applied to, and why.
public struct BulkFailure: Sendable, Equatable {
    public var user: User
    public var error: APIError

    /// The sentence: the server's own message when it sent one.
    public var reason: String {
        error.errorDescription ?? "It failed."
    }
}
