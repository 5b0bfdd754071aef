import Foundation
import NIOConcurrencyHelpers

/// The first connection to an LDAP server, begun as soon as the settings name the server: the
/// TCP connect and StartTLS (or ldaps' handshake) need neither the password, the log nor the
/// terminal, and the handshake waits mostly on the server's half of it (docs/ldap.md), so it
/// runs beside the rest of the start instead of after it. The session's first call takes it
/// (`LDAPSession`), and binds on it; a failure here is that first call's failure, said the same
/// way. One connection, taken once, and only by a session with the same URL, CA file, StartTLS
/// setting and connect timeout.
package enum LDAPConnectAhead {
    /// What the connection was made for; a session with other settings makes its own.
    struct Target: Equatable {
        var url: String
        var caFile: String?
        var startTLS: Bool
        var connectTimeout: Duration

        init(_ configuration: LDAPConfiguration) {
            self.init(url: configuration.url, caFile: configuration.caFile, startTLS: configuration.startTLS,
                      connectTimeout: configuration.connectTimeout)
        }

        init(url: URL, caFile: String?, startTLS: Bool, connectTimeout: Duration) {
            self.url = url.absoluteString
            self.caFile = caFile
            self.startTLS = startTLS
            self.connectTimeout = connectTimeout
        }
    }

    /// The one connection made ahead: pending until its thread is done, then its result until taken.
    private final class Slot: @unchecked Sendable {
        let target: Target
        /// Set once by the connecting thread, under `done`.
        var result: Result<LDAPConnection, any Error>?
        /// 0 while connecting, 1 once `result` is set.
        let done = ConditionLock(value: 0)
        /// Set by the session that takes it, under `LDAPConnectAhead.slot`'s lock.
        var taken = false
        init(_ target: Target) { self.target = target }
    }

    private static let slot = NIOLockedValueBox<Slot?>(nil)

    /// Starts connecting to `url` (ldap:// or ldaps://) on a thread of its own, as a session
    /// with these settings would. A second call for the same settings while the first is pending
    /// or untaken does nothing; one for other settings drops the first (closed once its thread
    /// is done). No password is read and nothing is sent beyond StartTLS.
    package static func begin(url: URL, caFile: String?, startTLS: Bool, connectTimeout: Duration) {
        LDAPLibrary.preload()
        let target = Target(url: url, caFile: caFile, startTLS: startTLS, connectTimeout: connectTimeout)
        let made: Slot? = slot.withLockedValue { current in
            if let current, current.target == target, !current.taken { return nil }
            current = Slot(target)
            return current
        }
        guard let made else { return }
        let isLDAPS = url.scheme?.lowercased() == "ldaps"
        Thread.detachNewThread {
            let result = Result<LDAPConnection, any Error> {
                let connection = try LDAPConnection(url: target.url, caFile: target.caFile, connectTimeout: target.connectTimeout)
                try connection.handshake(isLDAPS: isLDAPS, startTLS: target.startTLS)
                return connection
            }
            made.done.lock()
            made.result = result
            made.done.unlock(withValue: 1)
        }
    }

    /// Whether a connection for `configuration` is being made or waits to be taken.
    static func holds(_ configuration: LDAPConfiguration) -> Bool {
        slot.withLockedValue { $0?.target == Target(configuration) && $0?.taken == false }
    }

    /// Whether the connection for `configuration` has shaken hands (or failed) and waits to be taken.
    static func isReady(_ configuration: LDAPConfiguration) -> Bool {
        guard let slot = slot.withLockedValue({ $0 }), slot.target == Target(configuration), !slot.taken else { return false }
        return slot.done.value == 1
    }

    /// The connection made ahead for `configuration` (waiting for its handshake to end), or its
    /// failure; nil when none was begun for it or it was taken. Called on a session's thread.
    static func take(_ configuration: LDAPConfiguration) -> Result<LDAPConnection, any Error>? {
        let target = Target(configuration)
        let mine: Slot? = slot.withLockedValue { current in
            guard let current, current.target == target, !current.taken else { return nil }
            current.taken = true
            return current
        }
        guard let mine else { return nil }
        mine.done.lock(whenValue: 1)
        let result = mine.result
        mine.result = nil // the session owns the connection now
        mine.done.unlock()
        return result
    }
}
