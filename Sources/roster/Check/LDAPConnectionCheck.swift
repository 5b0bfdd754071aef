import Foundation
import Logging
import RosterKit
import RosterLDAP

/// `roster --check` for an ldap:// or ldaps:// server: resolves the name, then each step of
/// `LDAPCheck` as a line.
extension ConnectionCheck {
    func checkLDAP(_ url: URL, report: inout CheckReport) async {
        let host = url.host ?? "?"
        do {
            let addresses = try await AddressLookup.addresses(of: host, port: url.port ?? (url.scheme == "ldaps" ? 636 : 389))
            report.line("Address", "\(host) → \(addresses.prefix(4).joined(separator: ", "))")
        } catch {
            report.fail("Address", error.localizedDescription, fix: "Check the host name in the server URL, and the network.")
            return
        }
        let configuration: LDAPConfiguration
        do {
            configuration = try settings.ldap.configuration(url: url, caFile: settings.caFile, connectTimeout: settings.connectTimeout,
                                                            logger: Logger(label: "roster.check") { _ in SwiftLogNoOpLogHandler() })
        } catch {
            report.fail("Password", "\(error)", fix: nil)
            return
        }
        for step in await LDAPCheck.run(configuration) {
            if step.passed {
                report.line(step.name, step.text)
            } else {
                report.fail(step.name, step.text, fix: step.fix)
            }
        }
    }
}
