import RosterKit

/// What failed, in plain words, and how to try again: r or Enter retries, Esc closes. Where
/// trying again would be wrong (a create whose answer was lost, its user found) it offers to
/// open what was found instead: o or Enter.
public struct ErrorDialog: Identifiable {
    public let id: Int
    /// What the person was doing, e.g. "Could not load the users".
    public let title: String
    public let error: APIError
    let retryAction: (@MainActor () -> Void)?
    /// The offer in place of a retry, e.g. "Open Ana Silva", and what it does.
    public let openLabel: String?
    let openAction: (@MainActor () -> Void)?

    /// The sentence for a person.
    public var message: String {
        error.errorDescription ?? "Something went wrong."
    }

    /// What they can do about it.
    public var suggestion: String? {
        error.recoverySuggestion
    }

    /// Whether the dialog offers a retry.
    public var canRetry: Bool { retryAction != nil }

    /// Whether the dialog offers to open what was found.
    public var canOpen: Bool { openAction != nil }

    /// Whether trying again can help (a 4xx will fail the same way): the view may say so.
    public var isRetryable: Bool { error.isRetryable }
}

/// A short line at the bottom, gone after a few seconds.
public struct StatusMessage: Sendable, Equatable, Identifiable {
    public enum Kind: Sendable, Equatable {
        case info
        case warning
    }

    public let id: Int
    public let text: String
    public let kind: Kind
}
