/// The short message on the status line, gone after `statusMessageDuration`.
extension AppModel {
    /// Drops the message shown, so what it covered (a bulk run's progress line) shows at once.
    func clearStatus() {
        messageExpiry?.cancel()
        if statusMessage != nil { statusMessage = nil }
    }

    /// Shows a short message that goes away after `statusMessageDuration`.
    public func showStatus(_ text: String, kind: StatusMessage.Kind = .info) {
        nextID += 1
        let message = StatusMessage(id: nextID, text: text, kind: kind)
        statusMessage = message
        messageExpiry?.cancel()
        // Not tracked by `activity`: a message waiting to expire is not work in progress.
        let sleep = ClockSleep.sleeper(on: activity.clock, after: Self.statusMessageDuration)
        messageExpiry = Task { [weak self] in
            guard (try? await sleep()) != nil, !Task.isCancelled, let self else { return }
            if statusMessage?.id == message.id { statusMessage = nil }
        }
    }
}
