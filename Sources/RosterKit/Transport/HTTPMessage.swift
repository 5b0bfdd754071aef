import Foundation

/// The HTTP/1.1 wire format, as much of it as `SocketTransport` needs: one request out, one
/// response in (status line, headers, a body by Content-Length, chunks, or until close).
enum HTTPMessage {
    static let maximumHeaderBytes = 64 * 1024

    static func serialize(_ request: TransportRequest, host: String, port: Int) -> [UInt8] {
        // The path and query as they were encoded, not decoded and re-encoded.
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        var target = components?.percentEncodedPath ?? "/"
        if target.isEmpty { target = "/" }
        if let query = components?.percentEncodedQuery { target += "?" + query }
        var head = "\(request.method.rawValue) \(target) HTTP/1.1\r\nHost: \(host):\(port)\r\n"
        for field in request.headers where !field.name.caseInsensitiveEquals("Host") && !field.name.caseInsensitiveEquals("Content-Length") {
            head += "\(field.name): \(field.value)\r\n"
        }
        if let body = request.body {
            head += "Content-Length: \(body.count)\r\n"
        } else if request.method == .post || request.method == .put || request.method == .patch {
            head += "Content-Length: 0\r\n"
        }
        head += "\r\n"
        var bytes = Array(head.utf8)
        if let body = request.body { bytes.append(contentsOf: body) }
        return bytes
    }

    /// Reads one response. `reusable` says whether the connection may carry another request.
    static func readResponse(
        from connection: SocketConnection, expectsBody: Bool, maximumBodyBytes: Int
    ) throws -> (response: TransportResponse, reusable: Bool) {
        var buffer: [UInt8] = []
        var headerEnd: Int?
        while headerEnd == nil {
            let chunk = try connection.read()
            guard !chunk.isEmpty else { throw APIError.connectionLost }
            let searchStart = max(0, buffer.count - 3)
            buffer.append(contentsOf: chunk)
            headerEnd = endOfHead(in: buffer, from: searchStart)
            if headerEnd == nil && buffer.count > maximumHeaderBytes { throw APIError.connectionLost }
        }
        let headEnd = headerEnd!
        connection.unread(buffer[(headEnd + 4)...])
        let lines = String(decoding: buffer[..<headEnd], as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusParts = lines.first?.split(separator: " ", maxSplits: 2) ?? []
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            throw APIError.connectionLost
        }
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(name: String(line[..<colon]), value: line[line.index(after: colon)...].trimmingSpaces())
        }
        var reusable = statusParts[0] == "HTTP/1.1" && headers["Connection"]?.lowercased() != "close"

        let body: [UInt8]
        if !expectsBody || status == 204 || status == 304 || (100..<200).contains(status) {
            body = []
        } else if headers["Transfer-Encoding"]?.lowercased().contains("chunked") == true {
            body = try readChunked(from: connection, limit: maximumBodyBytes)
        } else if let length = headers["Content-Length"].flatMap({ Int($0.trimmingSpaces()) }) {
            guard length <= maximumBodyBytes else { throw APIError.responseTooLarge(limitBytes: maximumBodyBytes) }
            body = try readExactly(length, from: connection)
        } else {
            body = try readToEnd(from: connection, limit: maximumBodyBytes)
            reusable = false
        }
        return (TransportResponse(status: status, headers: headers, body: Data(body)), reusable)
    }

    private static func endOfHead(in buffer: [UInt8], from start: Int) -> Int? {
        guard buffer.count >= 4 else { return nil }
        var index = start
        while index + 3 < buffer.count {
            if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 { return index }
            index += 1
        }
        return nil
    }

    private static func readExactly(_ count: Int, from connection: SocketConnection) throws -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(count)
        while body.count < count {
            let chunk = try connection.read(maximum: max(4096, min(count - body.count, 256 * 1024)))
            guard !chunk.isEmpty else { throw APIError.connectionLost }
            let needed = count - body.count
            if chunk.count > needed {
                body.append(contentsOf: chunk[..<needed])
                connection.unread(chunk[needed...])
            } else {
                body.append(contentsOf: chunk)
            }
        }
        return body
    }

    private static func readToEnd(from connection: SocketConnection, limit: Int) throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let chunk = try connection.read()
            if chunk.isEmpty { return body }
            body.append(contentsOf: chunk)
            if body.count > limit { throw APIError.responseTooLarge(limitBytes: limit) }
        }
    }

    private static func readLine(from connection: SocketConnection) throws -> String {
        var line: [UInt8] = []
        while true {
            let chunk = try connection.read()
            guard !chunk.isEmpty else { throw APIError.connectionLost }
            if let newline = chunk.firstIndex(of: 10) {
                line.append(contentsOf: chunk[..<newline])
                connection.unread(chunk[(newline + 1)...])
                if line.last == 13 { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            line.append(contentsOf: chunk)
            if line.count > maximumHeaderBytes { throw APIError.connectionLost }
        }
    }

    private static func readChunked(from connection: SocketConnection, limit: Int) throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let sizeLine = try readLine(from: connection)
            let sizeText = sizeLine.split(separator: ";").first.map { $0.trimmingSpaces() } ?? ""
            guard let size = Int(sizeText, radix: 16), size >= 0 else { throw APIError.connectionLost }
            if size == 0 {
                // Trailers, if any, end with an empty line.
                while try !readLine(from: connection).isEmpty {}
                return body
            }
            guard body.count + size <= limit else { throw APIError.responseTooLarge(limitBytes: limit) }
            body.append(contentsOf: try readExactly(size, from: connection))
            _ = try readLine(from: connection) // the CRLF after the chunk
        }
    }
}

private extension StringProtocol {
    func trimmingSpaces() -> String {
        var scalars = Substring(self).unicodeScalars
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
