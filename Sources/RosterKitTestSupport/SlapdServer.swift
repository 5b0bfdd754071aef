import Foundation
import RosterKit
import RosterLDAP
import Synchronization

/// OpenLDAP's slapd for a test, from Debian's package, in a temporary folder with a generated
/// cn=config (ppolicy, memberof and sssvlv overlays), 300 seeded people (names in several
/// scripts) and four groups, on a free port, with StartTLS and ldaps by a test CA
/// (scripts/lib/slapd.sh). `make ldap-deps` (part of `make test`) installs slapd.
public final class SlapdServer: @unchecked Sendable {
    public static let base = "dc=roster,dc=test"
    public static let adminDN = "cn=admin,dc=roster,dc=test"
    public static let adminPassword = "admin-secret"
    public let folder: URL
    public let url: URL
    public let ldapsURL: URL
    public var caFile: String { folder.appendingPathComponent("ca.pem").path }

    public init(people: Int = 300) throws {
        guard Self.which("slapd") != nil || FileManager.default.isExecutableFile(atPath: "/usr/sbin/slapd") else {
            throw PeerError("slapd is not installed: run `make ldap-deps` (make test does)")
        }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("roster-slapd-\(UUID().uuidString.prefix(8))")
        let output = try Self.script(["start", folder.path, String(people)])
        let lines = output.split(separator: "\n").map(String.init)
        guard lines.count >= 2, let url = URL(string: lines[0]), let ldaps = URL(string: lines[1]) else {
            throw PeerError("slapd.sh did not say where slapd listens: \(output)")
        }
        self.url = url
        ldapsURL = ldaps
        Self.stopAtExit(folder.path)
    }

    deinit {
        Self.stop(folder: folder.path)
    }

    /// The folders of servers not stopped yet. The test process stops them as it exits too: a
    /// server a test leaked (a CI run left three folders of RosterAppTests' servers) would
    /// otherwise outlive the run.
    private static let unstopped = Mutex<Set<String>>([])

    private static func stopAtExit(_ folder: String) {
        _ = exitHandler
        unstopped.withLock { _ = $0.insert(folder) }
    }

    private static let exitHandler: Void = {
        atexit { for folder in SlapdServer.unstopped.withLock({ $0 }) { SlapdServer.stop(folder: folder) } }
    }()

    /// Stops the server by its pid (slapd.sh writes it before the server answers) and deletes
    /// the folder, here rather than through slapd.sh: a deinit cannot throw, and a stop that
    /// failed silently left servers running after a test run. A failure is said on stderr.
    private static func stop(folder: String) {
        guard unstopped.withLock({ $0.remove(folder) != nil }) else { return }
        let pidFile = URL(fileURLWithPath: folder).appendingPathComponent("slapd.pid")
        if let text = try? String(contentsOf: pidFile, encoding: .utf8), let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)),
           kill(pid, SIGKILL) != 0, errno != ESRCH {
            warn("could not stop slapd \(pid) of \(folder): \(String(cString: strerror(errno)))")
        }
        do { try FileManager.default.removeItem(atPath: folder) } catch {
            warn("could not delete \(folder): \(error)")
        }
    }

    static func warn(_ message: String) {
        FileHandle.standardError.write(Data("SlapdServer: \(message)\n".utf8))
    }

    /// Stops the server, keeping its data and ports.
    public func halt() throws { _ = try Self.script(["halt", folder.path]) }

    /// Starts it again where it was.
    public func resume() throws { _ = try Self.script(["resume", folder.path]) }

    /// A configuration binding as the admin over StartTLS, trusting the test CA.
    public func configuration(startTLS: Bool = true, schema: LDAPSchemaSettings = LDAPSchemaSettings()) -> LDAPConfiguration {
        LDAPConfiguration(url: url, bindDN: Self.adminDN, password: TokenProvider(.literal(Self.adminPassword, origin: "test")),
                          startTLS: startTLS, caFile: caFile, schema: schema, logger: LogRecorder().logger(level: .critical))
    }

    /// `ldapsearch` as the admin: the entry's attributes as LDIF lines (base64 values decoded).
    public func ldapsearch(base: String, scope: String = "base", filter: String = "(objectClass=*)", attributes: [String] = []) throws -> [String: [String]] {
        Self.parse(try Self.run("ldapsearch", ["-LLL", "-o", "ldif-wrap=no", "-x", "-H", url.absoluteString, "-D", Self.adminDN,
                                                "-w", Self.adminPassword, "-s", scope, "-b", base, filter] + attributes))
    }

    /// LDIF lines as attribute values (base64 values decoded), attribute names in lower case.
    static func parse(_ text: String) -> [String: [String]] {
        var values: [String: [String]] = [:]
        for line in text.split(separator: "\n") {
            if let range = line.range(of: ":: ") {
                let name = String(line[..<range.lowerBound]).lowercased()
                let decoded = Data(base64Encoded: String(line[range.upperBound...])).map { String(decoding: $0, as: UTF8.self) } ?? ""
                values[name, default: []].append(decoded)
            } else if let range = line.range(of: ": ") {
                values[String(line[..<range.lowerBound]).lowercased(), default: []].append(String(line[range.upperBound...]))
            }
        }
        return values
    }

    /// Whether `dn` can bind with `password` (`ldapwhoami`).
    /// The password goes in a 0600 file (`-y`), never on the command line.
    public func canBind(_ dn: String, password: String) -> Bool {
        guard let file = try? Self.passwordFile(password) else { return false }
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        return (try? Self.run("ldapwhoami", ["-x", "-H", url.absoluteString, "-D", dn, "-y", file.path])) != nil
    }

    /// A file holding only `password` (no newline: `-y` takes the whole file), 0600 in a 0700
    /// folder of its own that the caller removes.
    static func passwordFile(_ password: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("roster-bind-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let file = folder.appendingPathComponent("password")
        guard FileManager.default.createFile(atPath: file.path, contents: Data(password.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw PeerError("could not write \(file.path)")
        }
        return file
    }

    /// `ldapmodify` as the admin with an LDIF change record.
    public func ldapmodify(_ ldif: String) throws {
        _ = try Self.run("ldapmodify", ["-x", "-H", url.absoluteString, "-D", Self.adminDN, "-w", Self.adminPassword], input: ldif)
    }

    static func script(_ arguments: [String], name: String = "slapd.sh") throws -> String {
        // Sources/RosterKitTestSupport/SlapdServer.swift → the package root.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try run(root.appendingPathComponent("scripts/lib/\(name)").path, arguments)
    }

    static func run(_ program: String, _ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> String {
        let process = Process()
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new } }
        process.executableURL = URL(fileURLWithPath: program.hasPrefix("/") ? program : (which(program) ?? "/usr/bin/\(program)"))
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let stdin = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        if let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let problem = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PeerError("\(program) \(arguments.first ?? "") failed: \(String(decoding: problem, as: UTF8.self))")
        }
        return String(decoding: data, as: UTF8.self)
    }

    static func which(_ name: String) -> String? {
        for folder in ["/usr/bin", "/usr/sbin", "/bin", "/sbin", "/usr/local/bin"] {
            let path = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}
