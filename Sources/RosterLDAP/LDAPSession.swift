import RosterKit
import Foundation
import NIOPosix
import NIOConcurrencyHelpers

/// The connection to one LDAP server and the thread its blocking calls run on (a thread of its
/// own, never Swift's cooperative pool). Connects on first use: TCP, StartTLS unless the URL is
/// ldaps (or the settings turn it off), a simple bind, the root DSE. A connection the server
/// dropped is made again on the next call; a read that found it dropped is tried once more on
/// the new one, a write never (it may have landed).
final class LDAPSession: Sendable {
    let configuration: LDAPConfiguration
    private let pool: NIOThreadPool
    /// Touched only on the pool's one thread.
    private let state = NIOLockedValueBox<Box>(Box())
    private let knownRootDSE = NIOLockedValueBox<LDAPRootDSE?>(nil)

    /// The connection, owned by the pool's thread (the mutex is only ever taken there).
    private final class Box: @unchecked Sendable {
        var connection: LDAPConnection?
        /// A handle made ahead, not yet connected (`init`).
        var prepared: LDAPConnection?
    }

    init(_ configuration: LDAPConfiguration) {
        // libldap writes to sockets without MSG_NOSIGNAL: a write to a server that went away
        // must fail with EPIPE, not end the program.
        signal(SIGPIPE, SIG_IGN)
        self.configuration = configuration
        pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        // The first handle costs libldap's start (its SASL plugins, about 4 ms here) and the TLS
        // context with the CA file: made now, on the session's thread, while the app sets up its
        // screen. No network, so nothing here can fail in a way the first call would not say.
        pool.submit { [self] _ in
            state.withLockedValue { box in
                guard box.connection == nil, box.prepared == nil, !LDAPConnectAhead.holds(configuration) else { return }
                box.prepared = try? LDAPConnection(url: configuration.url.absoluteString, caFile: configuration.caFile,
                                                   connectTimeout: configuration.connectTimeout)
            }
        }
    }

    deinit {
        let box = state.withLockedValue { $0 }
        pool.submit { _ in box.connection?.close() }
        pool.shutdownGracefully { _ in }
    }

    /// The root DSE as read when the connection was made (connecting first when needed).
    func rootDSE() async throws -> LDAPRootDSE {
        if let known = knownRootDSE.withLockedValue({ $0 }) { return known }
        _ = try await run("connect", mayRepeat: true) { _, _ in 0 }
        guard let known = knownRootDSE.withLockedValue({ $0 }) else { throw LDAPResultError(code: LDAPResultError.serverDown, operation: "connect") }
        return known
    }

    /// The root DSE if the connection has been made.
    var rootDSEIfKnown: LDAPRootDSE? { knownRootDSE.withLockedValue { $0 } }

    /// Runs `body` on the session's thread with a connected, bound connection. `mayRepeat`:
    /// the call only reads, so a dropped connection is made again and the call sent again once.
    func run<T: Sendable>(
        _ operation: String, mayRepeat: Bool, _ body: @escaping @Sendable (LDAPConnection, CancelFlag) throws -> T
    ) async throws -> T {
        let password = try await configuration.password?.current() ?? ""
        let cancel = CancelFlag()
        return try await withTaskCancellationHandler {
            try await pool.runIfActive { [self] in
                try state.withLockedValue { box in
                    let hadConnection = box.connection != nil
                    do {
                        return try body(try connected(box, password: password, cancel: cancel), cancel)
                    } catch let error as LDAPResultError where error.connectionIsGone {
                        box.connection?.close()
                        box.connection = nil
                        guard mayRepeat, hadConnection else { throw error }
                        configuration.logger.info("LDAP connection dropped; connecting again for \(operation)")
                        return try body(try connected(box, password: password, cancel: cancel), cancel)
                    } catch let error as LDAPResultError where error.sortSlotsTaken && mayRepeat && hadConnection {
                        // A read only: a new connection starts with no sorted search held.
                        box.connection?.close()
                        box.connection = nil
                        configuration.logger.info("LDAP server's sorted searches full on this connection; connecting again for \(operation)")
                        return try body(try connected(box, password: password, cancel: cancel), cancel)
                    }
                }
            }
        } onCancel: {
            cancel.cancel()
        }
    }

    /// Drops the connection, so the next call makes a new one (the error dialog's retry).
    func reset() async {
        _ = try? await pool.runIfActive { [self] in
            state.withLockedValue { box in
                box.connection?.close()
                box.connection = nil
            }
        }
    }

    private func connected(_ box: Box, password: String, cancel: CancelFlag) throws -> LDAPConnection {
        if let connection = box.connection { return connection }
        // The first connection may have been begun as the settings were read: its failure is
        // this call's; a connection the server dropped while the app waited (a slow password
        // prompt) is made again below.
        if let ahead = LDAPConnectAhead.take(configuration) {
            let connection = try ahead.get()
            do {
                return try bound(connection, box, password: password, cancel: cancel)
            } catch let error as LDAPResultError where error.connectionIsGone {
                connection.close()
                configuration.logger.info("LDAP connection made at start was dropped before the bind; connecting again")
            }
        }
        let prepared = box.prepared
        box.prepared = nil
        let connection = try prepared ?? LDAPConnection(url: configuration.url.absoluteString, caFile: configuration.caFile,
                                                        connectTimeout: configuration.connectTimeout)
        try connection.handshake(isLDAPS: configuration.isLDAPS, startTLS: configuration.startTLS)
        return try bound(connection, box, password: password, cancel: cancel)
    }

    /// Binds on a connection that has shaken hands and reads the root DSE; it becomes the session's.
    private func bound(_ connection: LDAPConnection, _ box: Box, password: String, cancel: CancelFlag) throws -> LDAPConnection {
        try connection.bind(dn: configuration.bindDN, password: password)
        let root = try connection.search(base: "", scope: .base, filter: "(objectClass=*)", attributes: LDAPRootDSE.attributes,
                                         cancel: cancel).entries.first
        let dse = LDAPRootDSE(root ?? LDAPEntry(dn: ""))
        knownRootDSE.withLockedValue { $0 = dse }
        box.connection = connection
        configuration.logger.info("LDAP connected to \(configuration.host) (\(dse.vendor.rawValue), TLS \(connection.isEncrypted ? "on" : "off"))")
        return connection
    }
}

extension LDAPConnection {
    /// Connects and, on ldap:// unless turned off, does StartTLS: TLS failures become
    /// `LDAPConnectError.tlsFailed` (never a bind in clear instead).
    func handshake(isLDAPS: Bool, startTLS: Bool) throws {
        do {
            try open()
        } catch {
            if isLDAPS, error.mentionsTLS { throw LDAPConnectError.tlsFailed(error) }
            throw error
        }
        guard !isLDAPS, startTLS else { return }
        do {
            try self.startTLS()
        } catch where error.code == LDAPResultError.timeout {
            throw error // a server that stopped answering, not a certificate to trust
        } catch {
            throw LDAPConnectError.tlsFailed(error)
        }
    }
}

/// Connecting failed for a reason beyond a result code.
enum LDAPConnectError: Error {
    /// StartTLS was refused, or TLS (StartTLS or ldaps) failed: an untrusted certificate, a
    /// wrong name. Roster never binds in clear instead.
    case tlsFailed(LDAPResultError)
}

extension LDAPResultError {
    var mentionsTLS: Bool {
        guard code != LDAPResultError.timeout else { return false }
        let text = diagnostic.lowercased()
        return text.contains("tls") || text.contains("certificate") || text.contains("ssl")
    }
}
