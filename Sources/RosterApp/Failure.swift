import RosterKit

extension APIError {
    /// What a failed call means for the person: nil for a cancellation (never shown), the
    /// `APIError` itself, or anything else wrapped as a transport failure so it still gets a
    /// sentence and a retry.
    static func shown(for error: any Error) -> APIError? {
        if error is CancellationError { return nil }
        if let error = error as? APIError { return error }
        return .transportFailed(String(describing: error))
    }
}
