import Foundation
import RosterKit

/// PyPI's scim2-server, run for a test on a free port with a bearer token: a SCIM service
/// nobody on this project wrote. `make scim-peer` (part of `make test`) installs it under
/// .build/scim-peer.
public final class SCIMPeer {
    public static let token = "scim-peer-token"
    let process = Process()
    public let url: URL
    private let output = Pipe()

    /// - Parameter serviceProviderConfig: a file replacing the default configuration (to turn
    ///   PATCH, sort, ETags and filtering off).
    ///   - port: 0 for any free port; a given port starts the service again where it was.
    public init(serviceProviderConfig: String? = nil, port: Int = 0) throws {
        // Sources/RosterKitTestSupport/SCIMPeer.swift → the package root.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let python = root.appendingPathComponent(".build/scim-peer/bin/python3").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw PeerError("scim2-server is not installed: run `make scim-peer` (make test does)")
        }
        process.executableURL = URL(fileURLWithPath: python)
        var arguments = [root.appendingPathComponent("scripts/scim/scim2_server_port0.py").path,
                         "--hostname", "127.0.0.1", "--port", String(port), "--bearer-token", Self.token]
        if let serviceProviderConfig {
            arguments += ["--service-provider-config", root.appendingPathComponent(serviceProviderConfig).path]
        }
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var buffer = Data()
        let handle = output.fileHandleForReading
        var port: Int?
        let deadline = Date().addingTimeInterval(30)
        while port == nil, Date() < deadline {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            let text = String(decoding: buffer, as: UTF8.self)
            if let range = text.range(of: "SCIM_PORT=") {
                port = Int(text[range.upperBound...].prefix { $0.isNumber })
            }
        }
        guard let port else {
            process.terminate()
            throw PeerError("scim2-server did not say where it listens: \(String(decoding: buffer, as: UTF8.self))")
        }
        url = URL(string: "http://127.0.0.1:\(port)/v2")!
        handle.readabilityHandler = { $0.availableData.isEmpty ? ($0.readabilityHandler = nil) : () }
    }

    /// Kills the service (its data is in memory only). SIGKILL, not SIGTERM: a child of the
    /// test process can inherit a signal mask that blocks SIGTERM.
    public func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit { stop() }

    public func client() -> APIClient {
        APIClient(baseURL: url, token: Self.token, transport: TestTransport.shared, retryPolicy: .never,
                  logger: LogRecorder().logger(level: .critical))
    }

    /// POSTs a raw resource, as another tool (or an identity provider) would.
    public func post(_ json: String) async throws -> JSONValue {
        let response = try await TestTransport.shared.send(TransportRequest(
            method: .post, url: url.appendingPathComponent("Users"),
            headers: ["Authorization": "Bearer \(Self.token)", "Content-Type": "application/scim+json"], body: Data(json.utf8)))
        guard response.status == 201 else { throw PeerError("POST answered \(response.status): \(String(decoding: response.body, as: UTF8.self))") }
        return try JSONDecoder().decode(JSONValue.self, from: response.body)
    }

    /// The resource as the server holds it, read raw.
    public func raw(id: String) async throws -> JSONValue {
        let response = try await TestTransport.shared.send(TransportRequest(
            method: .get, url: url.appendingPathComponent("Users/\(id)"), headers: ["Authorization": "Bearer \(Self.token)"]))
        return try JSONDecoder().decode(JSONValue.self, from: response.body)
    }

    /// Changes a user's title behind Roster's back.
    public func patchTitle(id: String, _ title: String) async throws {
        try await patch(id: id, path: "title", title)
    }

    /// Replaces one attribute of a user behind Roster's back.
    public func patch(id: String, path: String, _ value: String) async throws {
        let body = #"{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"replace","path":"\#(path)","value":"\#(value)"}]}"#
        let response = try await TestTransport.shared.send(TransportRequest(
            method: .patch, url: url.appendingPathComponent("Users/\(id)"),
            headers: ["Authorization": "Bearer \(Self.token)", "Content-Type": "application/scim+json"], body: Data(body.utf8)))
        guard (200...299).contains(response.status) else { throw PeerError("PATCH answered \(response.status)") }
    }

    /// `count` users named user-0001…, in one /Bulk request when the service has it.
    public func seed(_ count: Int, bulk: Bool) async throws {
        func user(_ n: Int) -> String {
            let id = String(format: "%04d", n)
            return #"{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"userName":"user-\#(id)","displayName":"Seeded User \#(id)","emails":[{"value":"user-\#(id)@example.com","primary":true}],"active":true}"#
        }
        if bulk {
            let operations = (1...count).map { #"{"method":"POST","bulkId":"b\#($0)","path":"/Users","data":\#(user($0))}"# }
            let body = #"{"schemas":["urn:ietf:params:scim:api:messages:2.0:BulkRequest"],"Operations":[\#(operations.joined(separator: ","))]}"#
            let response = try await TestTransport.shared.send(TransportRequest(
                method: .post, url: url.appendingPathComponent("Bulk"),
                headers: ["Authorization": "Bearer \(Self.token)", "Content-Type": "application/scim+json"], body: Data(body.utf8)))
            guard response.status == 200 else { throw PeerError("Bulk answered \(response.status)") }
        } else {
            for n in 1...count { _ = try await post(user(n)) }
        }
    }
}

public struct PeerError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
