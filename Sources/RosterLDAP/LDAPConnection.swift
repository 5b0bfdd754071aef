import RosterKit
import CLDAP
import Foundation

/// One libldap connection (`LDAP *`) and its blocking calls. Not thread-safe by design: an
/// `LDAPSession` owns it and calls it from its one thread only. Every operation is sent
/// asynchronously and waited for in short slices, so a cancelled task abandons it
/// (`ldap_abandon_ext`) instead of waiting for the server.
final class LDAPConnection {
    private var handle: OpaquePointer?
    /// Watches this handle's TLS handshake (Sources/CLDAP/include/CLDAP.h says why libldap needs it).
    private var handshake: HandshakeWatch?
    let url: String
    let connectTimeout: Duration
    /// How long one operation may take before it is abandoned.
    var operationTimeout: Duration = .seconds(30)

    /// The state of the last paged search (RFC 2696): servers keep one per connection, so a
    /// cookie is only good for the next page of the search that gave it.
    var pagedCursor: PagedCursor?

    struct PagedCursor {
        var key: String
        var nextOffset: Int
        var cookie: Data
        /// The search it continues, to release it (a page size of 0, RFC 2696 section 3).
        var base: String
        var filter: String
        var attributes: [String]
        var sortKey: String?
    }

    /// Opens the connection (no network yet: libldap connects on the first operation).
    init(url: String, caFile: String?, connectTimeout: Duration) throws(LDAPResultError) {
        self.url = url
        self.connectTimeout = connectTimeout
        var ld: OpaquePointer?
        let code = ldap_initialize(&ld, url)
        if let reason = roster_ldap_load_error() {
            throw LDAPResultError(code: code, diagnostic: "\(String(cString: reason)): install Debian's libldap-2.5-0 (or your system's OpenLDAP client library)",
                                  operation: "initialize")
        }
        guard code == LDAP_SUCCESS, let ld else { throw LDAPResultError(code: code, diagnostic: "", operation: "initialize") }
        handle = ld
        var version = LDAP_VERSION3
        ldap_set_option(ld, LDAP_OPT_PROTOCOL_VERSION, &version)
        ldap_set_option(ld, LDAP_OPT_REFERRALS, roster_ldap_opt_off())
        var network = timeval(tv_sec: Int(connectTimeout.components.seconds), tv_usec: 0)
        ldap_set_option(ld, LDAP_OPT_NETWORK_TIMEOUT, &network)
        var sync = timeval(tv_sec: Int(operationTimeout.components.seconds), tv_usec: 0)
        ldap_set_option(ld, LDAP_OPT_TIMEOUT, &sync)
        var demand = LDAP_OPT_X_TLS_DEMAND
        ldap_set_option(ld, LDAP_OPT_X_TLS_REQUIRE_CERT, &demand)
        if let caFile { ldap_set_option(ld, LDAP_OPT_X_TLS_CACERTFILE, caFile) }
        // A new TLS context, so the options above apply to this connection only.
        var isServer: Int32 = 0
        ldap_set_option(ld, LDAP_OPT_X_TLS_NEWCTX, &isServer)
        handshake = roster_tls_handshake_watch(ld).map(HandshakeWatch.init)
    }

    deinit { close() }

    func close() {
        if let handle { ldap_unbind_ext(handle, nil, nil) }
        handle = nil
        handshake = nil
        pagedCursor = nil
    }

    private func ld(_ operation: String) throws(LDAPResultError) -> OpaquePointer {
        guard let handle else { throw LDAPResultError(code: LDAPResultError.serverDown, operation: operation) }
        return handle
    }

    // MARK: Connecting

    /// The shim's handshake state, shared with the deadline's thread (its fields are atomics) and
    /// freed when neither the connection nor a pending deadline holds it.
    private final class HandshakeWatch: @unchecked Sendable {
        let state: UnsafeMutablePointer<roster_tls_handshake>
        init(_ state: UnsafeMutablePointer<roster_tls_handshake>) { self.state = state }
        deinit { free(state) }
    }

    /// Opens the TCP connection (and, for ldaps, TLS) now, so a failure here is told apart
    /// from one of StartTLS.
    func open() throws(LDAPResultError) {
        let ld = try ld("connect")
        // For ldaps the handshake is part of the connect; libldap bounds the TCP part itself.
        let code = try shakingHands(ld, within: connectTimeout * 2, "connect") { ldap_connect(ld) }
        guard code == LDAP_SUCCESS else { throw error(code, "connect") }
    }

    func startTLS() throws(LDAPResultError) {
        let ld = try ld("StartTLS")
        let code = try shakingHands(ld, within: connectTimeout, "StartTLS") { ldap_start_tls_s(ld, nil, nil) }
        guard code == LDAP_SUCCESS else { throw error(code, "StartTLS") }
    }

    /// Runs a call that may shake hands for TLS, cut when it takes longer than `limit`: a server
    /// that stops answering mid-handshake is a timeout, not a thread waiting forever.
    private func shakingHands(
        _ ld: OpaquePointer, within limit: Duration, _ operation: String, _ call: () -> Int32
    ) throws(LDAPResultError) -> Int32 {
        guard let handshake else { return call() }
        roster_tls_handshake_arm(handshake.state)
        let deadline = WorkerPool.shared.schedule(after: limit) { roster_tls_handshake_expire(handshake.state) }
        let code = call()
        WorkerPool.shared.cancel(deadline)
        if roster_tls_handshake_finish(handshake.state) != 0 {
            throw LDAPResultError(code: LDAPResultError.timeout, diagnostic: "the server did not finish the handshake within \(limit)",
                                  operation: operation)
        }
        if ldap_tls_inplace(ld) != 0 { roster_ldap_socket_nonblocking(ld) }
        return code
    }

    /// A simple bind (RFC 4513 section 5.1.3); an empty DN and password bind anonymously.
    func bind(dn: String, password: String) throws(LDAPResultError) {
        let ld = try ld("bind")
        var bytes = Array(password.utf8CString.dropLast()).map { $0 }
        let code = bytes.withUnsafeMutableBufferPointer { buffer in
            var credentials = berval(bv_len: ber_len_t(buffer.count), bv_val: buffer.baseAddress)
            return ldap_sasl_bind_s(ld, dn, roster_ldap_sasl_simple(), &credentials, nil, nil, nil)
        }
        // Wipe the copy of the password.
        for index in bytes.indices { bytes[index] = 0 }
        guard code == LDAP_SUCCESS else { throw error(code, "bind") }
    }

    /// Whether TLS is up on this connection (StartTLS done, or ldaps).
    var isEncrypted: Bool {
        guard let handle else { return false }
        return ldap_tls_inplace(handle) != 0
    }

    // MARK: Searching

    enum Scope {
        case base, oneLevel, subtree

        var value: Int32 {
            switch self {
            case .base: LDAP_SCOPE_BASE
            case .oneLevel: LDAP_SCOPE_ONELEVEL
            case .subtree: LDAP_SCOPE_SUBTREE
            }
        }
    }

    struct SearchResult<Entry> {
        var entries: [Entry]
        /// The next page's cookie; empty at the end (RFC 2696). Nil without paging.
        var cookie: Data?
        /// The server's estimate of the result's size (0 when it does not say).
        var estimatedTotal: Int
    }

    /// One search, optionally one page of it (`pageSize`, `cookie`) and sorted by `sortKeys`
    /// (RFC 2891, "attribute:orderingRule", a leading "-" for descending).
    func search(
        base: String, scope: Scope, filter: String, attributes: [String], pageSize: Int? = nil, cookie: Data? = nil,
        sortKeys: String? = nil, sizeLimit: Int = 0, cancel: CancelFlag
    ) throws -> SearchResult<LDAPEntry> {
        try search(base: base, scope: scope, filter: filter, attributes: attributes, pageSize: pageSize, cookie: cookie,
                   sortKeys: sortKeys, sizeLimit: sizeLimit, cancel: cancel) { $0 }
    }

    /// The same, with each entry made into what the caller keeps (`read`) as it comes, while
    /// the server is still sending the next: a page's entries are then mapped by the time its
    /// last one is in, not after (docs/benchmarks.md, "An LDAP directory, the first screen a
    /// seventh time").
    func search<Entry>(
        base: String, scope: Scope, filter: String, attributes: [String], pageSize: Int? = nil, cookie: Data? = nil,
        sortKeys: String? = nil, sizeLimit: Int = 0, cancel: CancelFlag, reading read: (LDAPEntry) -> Entry
    ) throws -> SearchResult<Entry> {
        let ld = try ld("search")
        var controls: [UnsafeMutablePointer<LDAPControl>?] = []
        defer { for control in controls { ldap_control_free(control) } }
        if let pageSize {
            var control: UnsafeMutablePointer<LDAPControl>?
            var bytes = [CChar](repeating: 0, count: max(cookie?.count ?? 0, 1))
            cookie?.withUnsafeBytes { raw in for (index, byte) in raw.enumerated() { bytes[index] = CChar(bitPattern: byte) } }
            let code = bytes.withUnsafeMutableBufferPointer { buffer in
                var value = berval(bv_len: ber_len_t(cookie?.count ?? 0), bv_val: buffer.baseAddress)
                // Size 0 releases the server's paged search; libldap's own builder refuses it.
                return pageSize == 0 ? roster_ldap_page_release_control(ld, &value, &control)
                                     : ldap_create_page_control(ld, ber_int_t(pageSize), &value, 0, &control)
            }
            guard code == LDAP_SUCCESS else { throw error(code, "search") }
            controls.append(control)
        }
        if let sortKeys {
            var keys: UnsafeMutablePointer<UnsafeMutablePointer<LDAPSortKey>?>?
            var text = Array(sortKeys.utf8CString)
            guard text.withUnsafeMutableBufferPointer({ ldap_create_sort_keylist(&keys, $0.baseAddress) }) == LDAP_SUCCESS else {
                throw LDAPResultError(code: LDAPResultError.localError, diagnostic: "bad sort key \(sortKeys)", operation: "search")
            }
            defer { ldap_free_sort_keylist(keys) }
            var control: UnsafeMutablePointer<LDAPControl>?
            let code = ldap_create_sort_control(ld, keys, 0, &control)
            guard code == LDAP_SUCCESS else { throw error(code, "search") }
            controls.append(control)
        }
        controls.append(nil)

        var messageID: Int32 = 0
        let code = withCStrings(attributes) { attributeList in
            controls.withUnsafeMutableBufferPointer { controlList in
                ldap_search_ext(ld, base, scope.value, filter, attributeList, 0,
                                controlList.count > 1 ? controlList.baseAddress : nil, nil, nil, Int32(sizeLimit), &messageID)
            }
        }
        guard code == LDAP_SUCCESS else { throw error(code, "search") }

        var result = SearchResult<Entry>(entries: [], cookie: nil, estimatedTotal: 0)
        try wait(for: messageID, operation: "search", cancel: cancel) { message, type in
            switch type {
            case 0x64: // LDAP_RES_SEARCH_ENTRY
                result.entries.append(read(entry(ld, message)))
                return false
            case 0x73: // LDAP_RES_SEARCH_REFERENCE: continuation references are not followed
                return false
            default:
                var returned: UnsafeMutablePointer<UnsafeMutablePointer<LDAPControl>?>?
                do {
                    try parseResult(ld, message, operation: "search", controls: &returned)
                } catch let error as LDAPResultError where error.code == LDAPResultError.sizeLimitExceeded && sizeLimit > 0 {
                    // The limit asked for was reached: what came is the answer.
                }
                defer { ldap_controls_free(returned) }
                if pageSize != nil, let returned, let paged = ldap_control_find(LDAP_CONTROL_PAGEDRESULTS, returned, nil) {
                    var count: ber_int_t = 0
                    var next = berval(bv_len: 0, bv_val: nil)
                    if ldap_parse_pageresponse_control(ld, paged, &count, &next) == LDAP_SUCCESS {
                        result.cookie = next.bv_val.map { Data(bytes: $0, count: Int(next.bv_len)) } ?? Data()
                        result.estimatedTotal = Int(count)
                        ber_memfree(next.bv_val)
                    }
                }
                return true
            }
        }
        if pageSize != nil, result.cookie == nil { result.cookie = Data() }
        return result
    }

    // MARK: Writing

    func modify(dn: String, _ modifications: [LDAPModification], cancel: CancelFlag) throws {
        let ld = try ld("modify")
        var messageID: Int32 = 0
        let code = withMods(modifications) { ldap_modify_ext(ld, dn, $0, nil, nil, &messageID) }
        guard code == LDAP_SUCCESS else { throw error(code, "modify") }
        try waitForResult(messageID, operation: "modify", cancel: cancel)
    }

    func add(dn: String, _ attributes: [LDAPModification], cancel: CancelFlag) throws {
        let ld = try ld("add")
        var messageID: Int32 = 0
        let code = withMods(attributes) { ldap_add_ext(ld, dn, $0, nil, nil, &messageID) }
        guard code == LDAP_SUCCESS else { throw error(code, "add") }
        try waitForResult(messageID, operation: "add", cancel: cancel)
    }

    func delete(dn: String, cancel: CancelFlag) throws {
        let ld = try ld("delete")
        var messageID: Int32 = 0
        let code = ldap_delete_ext(ld, dn, nil, nil, &messageID)
        guard code == LDAP_SUCCESS else { throw error(code, "delete") }
        try waitForResult(messageID, operation: "delete", cancel: cancel)
    }

    /// Renames the entry within its parent (modify DN, RFC 4511 section 4.9), dropping the old RDN value.
    func rename(dn: String, newRDN: String, cancel: CancelFlag) throws {
        let ld = try ld("rename")
        var messageID: Int32 = 0
        let code = ldap_rename(ld, dn, newRDN, nil, 1, nil, nil, &messageID)
        guard code == LDAP_SUCCESS else { throw error(code, "rename") }
        try waitForResult(messageID, operation: "rename", cancel: cancel)
    }

    /// The password modify extended operation (RFC 3062): sets `dn`'s password to `password`.
    func setPassword(dn: String, to password: String, cancel: CancelFlag) throws {
        let ld = try ld("password modify")
        var messageID: Int32 = 0
        var identity = Array(dn.utf8).map { CChar(bitPattern: $0) }
        var secret = Array(password.utf8).map { CChar(bitPattern: $0) }
        defer { for index in secret.indices { secret[index] = 0 } }
        let code = identity.withUnsafeMutableBufferPointer { identityBuffer in
            secret.withUnsafeMutableBufferPointer { secretBuffer in
                var user = berval(bv_len: ber_len_t(identityBuffer.count), bv_val: identityBuffer.baseAddress)
                var new = berval(bv_len: ber_len_t(secretBuffer.count), bv_val: secretBuffer.baseAddress)
                return ldap_passwd(ld, &user, nil, &new, nil, nil, &messageID)
            }
        }
        guard code == LDAP_SUCCESS else { throw error(code, "password modify") }
        try waitForResult(messageID, operation: "password modify", cancel: cancel)
    }

    // MARK: Waiting

    private func waitForResult(_ messageID: Int32, operation: String, cancel: CancelFlag) throws {
        let ld = try ld(operation)
        try wait(for: messageID, operation: operation, cancel: cancel) { message, _ in
            var none: UnsafeMutablePointer<UnsafeMutablePointer<LDAPControl>?>?
            try parseResult(ld, message, operation: operation, controls: &none)
            ldap_controls_free(none)
            return true
        }
    }

    /// Reads the operation's messages one by one, in slices of 100 ms, until `handle` says the
    /// last has come. A cancelled flag or the operation timeout abandons the operation.
    private func wait(
        for messageID: Int32, operation: String, cancel: CancelFlag,
        handle: (OpaquePointer, Int32) throws -> Bool
    ) throws {
        let ld = try ld(operation)
        let deadline = ContinuousClock.now.advanced(by: operationTimeout)
        while true {
            if cancel.isCancelled {
                ldap_abandon_ext(ld, messageID, nil, nil)
                pagedCursor = nil
                throw CancellationError()
            }
            if ContinuousClock.now >= deadline {
                ldap_abandon_ext(ld, messageID, nil, nil)
                pagedCursor = nil
                throw LDAPResultError(code: LDAPResultError.timeout, operation: operation)
            }
            var slice = timeval(tv_sec: 0, tv_usec: 100_000)
            var message: OpaquePointer?
            let type = ldap_result(ld, messageID, LDAP_MSG_ONE, &slice, &message)
            if type == 0 { continue }
            guard type > 0, let message else {
                throw error(resultCode(ld), operation)
            }
            defer { ldap_msgfree(message) }
            if try handle(message, type) { return }
        }
    }

    private func parseResult(
        _ ld: OpaquePointer, _ message: OpaquePointer, operation: String,
        controls: inout UnsafeMutablePointer<UnsafeMutablePointer<LDAPControl>?>?
    ) throws(LDAPResultError) {
        var code: Int32 = 0
        var diagnostic: UnsafeMutablePointer<CChar>?
        let parsed = ldap_parse_result(ld, message, &code, nil, &diagnostic, nil, &controls, 0)
        defer { ldap_memfree(diagnostic) }
        guard parsed == LDAP_SUCCESS else { throw error(parsed, operation) }
        guard code == LDAP_SUCCESS else {
            throw LDAPResultError(code: code, diagnostic: diagnostic.map { String(cString: $0) } ?? "", operation: operation)
        }
    }

    /// The entry read in one pass over its message, as ldapsearch reads it: each attribute
    /// with its values together (ldap_get_values_len looked every name up again from the start,
    /// comparing names case-insensitively: a fifth of reading a page, perf).
    private func entry(_ ld: OpaquePointer, _ message: OpaquePointer) -> LDAPEntry {
        var ber: OpaquePointer?
        var name = berval()
        guard ldap_get_dn_ber(ld, message, &ber, &name) == LDAP_SUCCESS else {
            if let ber { ber_free(ber, 0) }
            return LDAPEntry(dn: "")
        }
        defer { ber_free(ber, 0) }
        let dn = Self.text(name)
        var attributes: [String: [String]] = [:]
        var values: BerVarray?
        while ldap_get_attribute_ber(ld, message, ber, &name, &values) == LDAP_SUCCESS, name.bv_val != nil {
            var list: [String] = []
            if let values {
                var index = 0
                while values[index].bv_val != nil {
                    list.append(Self.text(values[index]))
                    index += 1
                }
                ber_memfree(values)
            }
            values = nil
            attributes[LDAPEntry.key(Self.text(name))] = list
        }
        return LDAPEntry(dn: dn, attributes: attributes)
    }

    /// A value as UTF-8 text (the values point into the message; they are copied here).
    private static func text(_ value: berval) -> String {
        guard let bytes = value.bv_val else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: Int(value.bv_len)), as: UTF8.self)
    }

    private func resultCode(_ ld: OpaquePointer) -> Int32 {
        var code: Int32 = 0
        ldap_get_option(ld, LDAP_OPT_RESULT_CODE, &code)
        return code
    }

    /// The error for a failed call, with libldap's diagnostic message when it has one.
    private func error(_ code: Int32, _ operation: String) -> LDAPResultError {
        var diagnostic: UnsafeMutablePointer<CChar>?
        if let handle { ldap_get_option(handle, LDAP_OPT_DIAGNOSTIC_MESSAGE, &diagnostic) }
        defer { ldap_memfree(diagnostic) }
        let text = diagnostic.map { String(cString: $0) } ?? ""
        return LDAPResultError(code: code, diagnostic: text.isEmpty ? String(cString: ldap_err2string(code)) : text, operation: operation)
    }
}

/// Calls `body` with a NULL-terminated `char **` of `strings`.
private func withCStrings<T>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> T) -> T {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    pointers.append(nil)
    defer { for pointer in pointers { free(pointer) } }
    return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress) }
}

/// Calls `body` with a NULL-terminated `LDAPMod **` of `modifications`, values as `berval`s.
private func withMods<T>(_ modifications: [LDAPModification], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<LDAPMod>?>?) -> T) -> T {
    // Each allocation with the bytes to wipe before it is freed (a password may be among the values).
    var allocations: [(pointer: UnsafeMutableRawPointer, wipe: Int)] = []
    defer {
        for (pointer, wipe) in allocations {
            if wipe > 0 { memset(pointer, 0, wipe) }
            free(pointer)
        }
    }
    var mods: [UnsafeMutablePointer<LDAPMod>?] = modifications.map { modification in
        let operation: Int32 = switch modification.operation {
        case .add: LDAP_MOD_ADD
        case .delete: LDAP_MOD_DELETE
        case .replace: LDAP_MOD_REPLACE
        }
        let valuesMemory = malloc(MemoryLayout<UnsafeMutablePointer<berval>?>.stride * (modification.values.count + 1))!
        allocations.append((valuesMemory, 0))
        let values = valuesMemory.bindMemory(to: UnsafeMutablePointer<berval>?.self, capacity: modification.values.count + 1)
        for (index, data) in modification.values.enumerated() {
            let bytes = malloc(max(data.count, 1))!
            allocations.append((bytes, data.count))
            data.copyBytes(to: bytes.assumingMemoryBound(to: UInt8.self), count: data.count)
            let valueMemory = malloc(MemoryLayout<berval>.stride)!
            allocations.append((valueMemory, 0))
            let value = valueMemory.bindMemory(to: berval.self, capacity: 1)
            value.initialize(to: berval(bv_len: ber_len_t(data.count), bv_val: bytes.assumingMemoryBound(to: CChar.self)))
            values[index] = value
        }
        values[modification.values.count] = nil
        let type = strdup(modification.attribute)!
        allocations.append((UnsafeMutableRawPointer(type), 0))
        let modMemory = malloc(MemoryLayout<LDAPMod>.stride)!
        allocations.append((modMemory, 0))
        let mod = modMemory.bindMemory(to: LDAPMod.self, capacity: 1)
        var entry = LDAPMod()
        entry.mod_op = operation | LDAP_MOD_BVALUES
        entry.mod_type = type
        entry.mod_vals.modv_bvals = modification.values.isEmpty ? nil : values
        mod.initialize(to: entry)
        return mod
    }
    mods.append(nil)
    return mods.withUnsafeMutableBufferPointer { body($0.baseAddress) }
}
