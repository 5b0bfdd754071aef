import RosterKit
import Foundation

/// The steps of `roster --check` for an LDAP server, each on a connection of its own: connect,
/// TLS (StartTLS or ldaps) and its certificate, bind, the root DSE, and the people under the base.
public enum LDAPCheck {
    public struct Step: Sendable, Equatable {
        public var name: String
        public var text: String
        public var passed: Bool
        public var fix: String?
    }

    /// Every step until the first that fails.
    public static func run(_ configuration: LDAPConfiguration) async -> [Step] {
        let password: String
        do {
            password = try await configuration.password?.current() ?? ""
        } catch {
            let apiError = error as? APIError
            return [Step(name: "Password", text: apiError?.localizedDescription ?? "\(error)", passed: false, fix: apiError?.recoverySuggestion)]
        }
        return await Task.detached {
            steps(configuration, password: password)
        }.value
    }

    private static func steps(_ configuration: LDAPConfiguration, password: String) -> [Step] {
        var steps: [Step] = []
        let host = configuration.host
        let cancel = CancelFlag()
        func failed(_ name: String, _ error: any Error, fix: String? = nil) -> [Step] {
            let mapped = LDAPErrorMapping.apiError(error, host: host, schema: nil)
            let apiError = mapped as? APIError
            steps.append(Step(name: name, text: apiError?.localizedDescription ?? "\(error)", passed: false,
                              fix: fix ?? apiError?.recoverySuggestion))
            return steps
        }
        let connection: LDAPConnection
        do {
            connection = try LDAPConnection(url: configuration.url.absoluteString, caFile: configuration.caFile,
                                            connectTimeout: configuration.connectTimeout)
            try connection.open()
        } catch {
            return failed(configuration.isLDAPS ? "Connect+TLS" : "Connect", error,
                          fix: "Check that the server is running and the address and port are right.")
        }
        defer { connection.close() }
        steps.append(Step(name: "Connect", text: "\(configuration.url.absoluteString): connected", passed: true))
        if configuration.isLDAPS {
            steps.append(Step(name: "TLS", text: "ldaps; certificate trusted\(configuration.caFile.map { " (caFile \($0))" } ?? "")", passed: true))
        } else if configuration.startTLS {
            do {
                try connection.startTLS()
                steps.append(Step(name: "TLS", text: "StartTLS; certificate trusted\(configuration.caFile.map { " (caFile \($0))" } ?? "")", passed: true))
            } catch where error.code == LDAPResultError.timeout {
                return failed("TLS", error, fix: "The server accepted StartTLS but did not finish the handshake: check that it is not overloaded, or try ldaps://.")
            } catch {
                return failed("TLS", LDAPConnectError.tlsFailed(error))
            }
        } else {
            steps.append(Step(name: "TLS", text: "off (\"startTLS\": false): the password crosses the network in clear", passed: true))
        }
        do {
            try connection.bind(dn: configuration.bindDN, password: password)
            let source = configuration.password?.source.summary ?? "no password"
            steps.append(Step(name: "Bind", text: configuration.bindDN.isEmpty ? "anonymous" : "\(configuration.bindDN) (password from \(source)): accepted", passed: true))
        } catch {
            return failed("Bind", error, fix: "Check --bind-dn (bindDN) and the password (ROSTER_PASSWORD, passwordFile or passwordCommand).")
        }
        let root: LDAPRootDSE
        do {
            let entry = try connection.search(base: "", scope: .base, filter: "(objectClass=*)", attributes: LDAPRootDSE.attributes,
                                              cancel: cancel).entries.first
            root = LDAPRootDSE(entry ?? LDAPEntry(dn: ""))
            let controls = [root.offersPaging ? "paged results" : nil, root.offersSort ? "server-side sort" : nil,
                            root.offersPasswordModify ? "password modify" : nil].compactMap { $0 }
            steps.append(Step(name: "Server", text: "\(root.vendor.rawValue); naming contexts \(root.namingContexts.joined(separator: "; ")); \(controls.isEmpty ? "no paging or sort" : controls.joined(separator: ", "))", passed: true))
        } catch {
            return failed("Server", error)
        }
        guard let base = configuration.schema.peopleBase ?? root.defaultBase else {
            steps.append(Step(name: "People", text: "no base", passed: false, fix: "Set ldap.peopleBase in the settings."))
            return steps
        }
        let schema = LDAPSchema(vendor: root.vendor, base: base, settings: configuration.schema)
        do {
            var count = 0
            var cookie = Data()
            repeat {
                let page = try connection.search(base: schema.peopleBase, scope: .subtree, filter: schema.personFilter, attributes: ["1.1"],
                                                 pageSize: root.offersPaging ? 1000 : nil, cookie: cookie, cancel: cancel)
                count += page.entries.count
                cookie = page.cookie ?? Data()
            } while !cookie.isEmpty
            steps.append(Step(name: "People", text: "\(count) under \(schema.peopleBase) (\(schema.personFilter))", passed: true))
        } catch {
            return failed("People", error)
        }
        return steps
    }
}
