import RosterKit

/// Something loaded from the server, with the last good value kept while a reload runs and
/// after one fails: a failure never blanks what was on screen.
public enum LoadState<Value> {
    /// Nothing asked for yet.
    case idle
    /// A load is under way; `previous` is what was shown before it, if anything.
    case loading(previous: Value?)
    case loaded(Value)
    /// The last load failed; `previous` is still what the person sees.
    case failed(APIError, previous: Value?)

    /// What to show: the loaded value, or the last good one during a reload or after a failure.
    public var value: Value? {
        switch self {
        case .idle: nil
        case .loading(let previous), .failed(_, let previous): previous
        case .loaded(let value): value
        }
    }

    public var isLoading: Bool {
        if case .loading = self { return true }
        return false
    }

    /// Whether the last load failed: a look at the case alone, without copying what it holds
    /// (a frame asks it of every held page).
    public var isFailed: Bool {
        if case .failed = self { return true }
        return false
    }

    /// The failure of the last load, if it failed.
    public var error: APIError? {
        if case .failed(let error, _) = self { return error }
        return nil
    }

    /// A load starts; what was shown stays.
    public mutating func startLoading() {
        self = .loading(previous: value)
    }

    public mutating func succeed(with value: Value) {
        self = .loaded(value)
    }

    /// The load failed; what was shown stays.
    public mutating func fail(with error: APIError) {
        self = .failed(error, previous: value)
    }

    /// Changes the shown value in place, keeping the phase. Does nothing when nothing is shown.
    public mutating func updateValue(_ body: (inout Value) -> Void) {
        switch self {
        case .idle, .loading(previous: nil), .failed(_, previous: nil):
            return
        case .loading(var value?):
            self = .idle // drop our reference first, so the value is changed without a copy
            body(&value)
            self = .loading(previous: value)
        case .loaded(var value):
            self = .idle
            body(&value)
            self = .loaded(value)
        case .failed(let error, var value?):
            self = .idle
            body(&value)
            self = .failed(error, previous: value)
        }
    }
}

extension LoadState: Sendable where Value: Sendable {}
extension LoadState: Equatable where Value: Equatable {}
