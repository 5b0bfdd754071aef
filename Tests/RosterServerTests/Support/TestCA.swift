import Foundation

/// A throwaway certificate authority made with the openssl command, and server certificates
/// it issues for localhost and 127.0.0.1, in a temporary folder the test removes.
struct TestCA: Sendable {
    let directory: URL
    var certificatePath: String { directory.appendingPathComponent("ca.pem").path }
    private var keyPath: String { directory.appendingPathComponent("ca.key").path }

    static func make() throws -> TestCA {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("roster-ca-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let ca = TestCA(directory: directory)
        try openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                     "-keyout", ca.keyPath, "-out", ca.certificatePath, "-days", "2", "-subj", "/CN=Roster test CA"])
        return ca
    }

    /// A certificate for localhost and 127.0.0.1 named `commonName`, signed by this authority,
    /// written to `name`.pem and `name`.key (0600) in the folder (replacing what is there).
    @discardableResult
    func issue(_ name: String, commonName: String) throws -> (certificate: String, key: String) {
        let certificate = directory.appendingPathComponent("\(name).pem").path
        let key = directory.appendingPathComponent("\(name).key").path
        let request = directory.appendingPathComponent("\(name).csr").path
        let extensions = directory.appendingPathComponent("\(name).ext").path
        try Data("subjectAltName=DNS:localhost,IP:127.0.0.1\n".utf8).write(to: URL(fileURLWithPath: extensions))
        // Written beside and moved in: a server reading the files at that moment sees the old
        // pair or the new one, never half of each file.
        try openssl(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                     "-keyout", key + ".new", "-out", request, "-subj", "/CN=\(commonName)"])
        try openssl(["x509", "-req", "-in", request, "-CA", certificatePath, "-CAkey", keyPath, "-CAcreateserial",
                     "-days", "1", "-extfile", extensions, "-out", certificate + ".new"])
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key + ".new")
        _ = rename(key + ".new", key)
        _ = rename(certificate + ".new", certificate)
        return (certificate, key)
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    struct OpenSSLFailed: Error, CustomStringConvertible {
        var arguments: [String]
        var description: String { "openssl \(arguments.joined(separator: " ")) failed (is the openssl package installed?)" }
    }

    private static func openssl(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw OpenSSLFailed(arguments: arguments) }
    }

    private func openssl(_ arguments: [String]) throws { try Self.openssl(arguments) }
}
