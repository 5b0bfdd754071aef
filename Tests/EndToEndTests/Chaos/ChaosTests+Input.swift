import Foundation
import RosterKit
import RosterKitTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Input nobody should send: a name of a megabyte, in the form and to the server, and a
/// request whose body stops half way.
extension ChaosTests {
    @Test func aMegabyteNamePastedIntoTheFormIsRefusedClearlyAndTheFormStillAnswers() async throws {
        let server = try await ServerProcess(seed: 100)
        defer { server.stop() }
        let session = try RosterSession(server: server)
        try await session.tmux.waitFor("1 / 100")
        try session.tmux.send("n")
        try await session.tmux.waitFor("New user")
        let file = server.directory.appendingPathComponent("name.txt")
        try String(repeating: "N", count: 1_048_576).write(to: file, atomically: true, encoding: .utf8)
        try session.tmux.paste(file: file.path)
        try session.tmux.send("Tab")
        try session.tmux.type("mega@example.org")
        // The whole paste is read, the name refused under its field, and the keys after it land.
        let screen = try await session.tmux.waitForScreen("the email typed after the paste", timeout: .seconds(60)) {
            $0.contains("mega@example.org")
        }
        #expect(screen.contains("Name must be at most 100 characters."))
        try session.tmux.send("Enter")
        try await Task.sleep(for: .milliseconds(500))
        let after = try session.tmux.screen()
        #expect(after.contains("New user") && after.contains("Name must be at most 100 characters."), "the form stays, with the message:\n\(after)")
        #expect(try await server.repository.listUsers(UserQuery(perPage: 1)).total == 100, "nothing stored")
    }

    @Test func aMegabyteNameSentStraightToTheServerIsAClearErrorAndNothingIsStored() async throws {
        let server = try await ServerProcess(seed: 10)
        defer { server.stop() }
        let body = #"{"name":""# + String(repeating: "N", count: 1_048_576) + #"","email":"mega@example.org"}"#
        let response = try await TestTransport.shared.send(TransportRequest(
            method: .post, url: server.url.appendingPathComponent("api/v1/users"),
            headers: ["Authorization": "Bearer \(server.token)", "Content-Type": "application/json"], body: Data(body.utf8)))
        #expect(response.status == 413)
        let envelope = try WireFormat.makeDecoder().decode(APIResponse<User>.self, from: response.body)
        #expect(envelope.error?.code == "payload_too_large")
        #expect(envelope.error?.message.isEmpty == false)
        #expect(try await server.repository.listUsers(UserQuery(perPage: 1)).total == 10, "nothing stored")
    }

    @Test func aBodyCutInTheMiddleStoresNothingAndTheServerGoesOn() async throws {
        let server = try await ServerProcess(seed: 10)
        defer { server.stop() }
        let body = #"{"name":"Cut Short","email":"cut@example.org"}"#
        let head = "POST /api/v1/users HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(server.token)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
        // Half the body, then the client stops sending (as a client that crashed mid-request).
        let answer = try RawHTTP.exchange(port: server.url.port ?? 0, bytes: Array((head + body.prefix(20)).utf8))
        #expect(answer.hasPrefix("HTTP/1.1 400"), "a cut body is a bad request: \(answer.prefix(200))")
        #expect(answer.contains("The request body could not be read."), "\(answer.prefix(300))")
        #expect(try await server.repository.listUsers(UserQuery(search: "cut@example.org")).total == 0, "nothing stored")
        // The whole request, sent after, is served.
        let whole = try RawHTTP.exchange(port: server.url.port ?? 0, bytes: Array((head + body).utf8))
        #expect(whole.hasPrefix("HTTP/1.1 201"), "\(whole.prefix(200))")
        #expect(try await server.repository.listUsers(UserQuery(perPage: 1)).total == 11)
    }
}

/// One HTTP/1.1 exchange over a plain socket, bytes as given: for requests no HTTP client sends.
enum RawHTTP {
    /// Sends `bytes`, closes the sending side, and reads until the server closes (at most 10 s).
    static func exchange(port: Int, bytes: [UInt8]) throws -> String {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw EndToEndError("socket: \(errno)") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw EndToEndError("connect: \(errno)") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var sent = 0
        while sent < bytes.count {
            let written = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw EndToEndError("send: \(errno)") }
            sent += written
        }
        shutdown(socket, Int32(SHUT_WR))
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += chunk[..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }
}
