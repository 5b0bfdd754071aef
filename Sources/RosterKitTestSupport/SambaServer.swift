import Foundation
import RosterKit
import RosterLDAP

/// Samba's Active Directory domain controller for a test, from Debian's package: provisioned
/// and seeded once into a template (120 people with names in several scripts, two groups),
/// copied for each server, which listens on 389 and 636 of a loopback address of its own with
/// a certificate from a test CA (scripts/lib/samba.sh). It refuses a simple bind in clear, so
/// StartTLS and ldaps are used for real.
public final class SambaServer: @unchecked Sendable {
    public static let base = "DC=roster,DC=test"
    public static let users = "CN=Users,DC=roster,DC=test"
    public static let admin = "Administrator@roster.test"
    public static let adminPassword = "Admin-Secret-1"
    public let folder: URL
    public let url: URL
    public let ldapsURL: URL
    public var caFile: String { folder.appendingPathComponent("ca.pem").path }

    public init() throws {
        guard SlapdServer.which("samba") != nil else {
            throw PeerError("samba is not installed: run `make ldap-deps` (make test does)")
        }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("roster-samba-\(UUID().uuidString.prefix(8))")
        let lines = try SlapdServer.script(["start", folder.path], name: "samba.sh").split(separator: "\n").map(String.init)
        guard lines.count >= 2, let url = URL(string: lines[lines.count - 2]), let ldaps = URL(string: lines[lines.count - 1]) else {
            throw PeerError("samba.sh did not say where Samba listens: \(lines)")
        }
        self.url = url
        ldapsURL = ldaps
    }

    deinit {
        do { _ = try SlapdServer.script(["stop", folder.path], name: "samba.sh") } catch {
            SlapdServer.warn("could not stop Samba of \(folder.path): \(error)")
        }
    }

    public func halt() throws { _ = try SlapdServer.script(["halt", folder.path], name: "samba.sh") }

    public func resume() throws { _ = try SlapdServer.script(["resume", folder.path], name: "samba.sh") }

    /// Binding as the administrator over StartTLS, trusting the test CA.
    public func configuration(url: URL? = nil) -> LDAPConfiguration {
        LDAPConfiguration(url: url ?? self.url, bindDN: Self.admin, password: TokenProvider(.literal(Self.adminPassword, origin: "test")),
                          caFile: caFile, logger: LogRecorder().logger(level: .critical))
    }

    private var host: String { url.host ?? "127.0.0.1" }

    /// `ldapsearch` over StartTLS as the administrator.
    public func ldapsearch(base: String, scope: String = "base", filter: String = "(objectClass=*)", attributes: [String] = []) throws -> [String: [String]] {
        try SlapdServer.parse(SlapdServer.run("ldapsearch", ["-ZZ", "-LLL", "-o", "ldif-wrap=no", "-x", "-H", url.absoluteString, "-D", Self.admin,
                                                             "-w", Self.adminPassword, "-s", scope, "-b", base, filter] + attributes,
                                              environment: ["LDAPTLS_CACERT": caFile]))
    }

    /// Whether `user` (a UPN or DN) can bind with `password` over StartTLS.
    public func canBind(_ user: String, password: String) -> Bool {
        guard let file = try? SlapdServer.passwordFile(password) else { return false }
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        return (try? SlapdServer.run("ldapsearch", ["-ZZ", "-x", "-H", url.absoluteString, "-D", user, "-y", file.path, "-s", "base", "-b", "", "1.1"],
                                     environment: ["LDAPTLS_CACERT": caFile])) != nil
    }
}
