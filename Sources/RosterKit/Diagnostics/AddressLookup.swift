import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Name lookup for `roster --check`: the addresses a host name resolves to, as the system's
/// resolver gives them (getaddrinfo, on its own thread: it blocks).
public enum AddressLookup {
    public static func addresses(of host: String, port: Int) async throws(APIError) -> [String] {
        let result = await Task.detached { () -> Swift.Result<[String], APIError> in
            var hints = addrinfo()
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            let status = getaddrinfo(host, String(port), &hints, &list)
            guard status == 0, let first = list else {
                return .failure(.cannotConnect(host: "\(host) (name lookup failed: \(String(cString: gai_strerror(status))))"))
            }
            defer { freeaddrinfo(list) }
            var found: [String] = []
            var entry: UnsafeMutablePointer<addrinfo>? = first
            while let current = entry {
                var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
                if getnameinfo(current.pointee.ai_addr, current.pointee.ai_addrlen, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 {
                    let address = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    if !found.contains(address) { found.append(address) }
                }
                entry = current.pointee.ai_next
            }
            return .success(found)
        }.value
        return try result.get()
    }
}
