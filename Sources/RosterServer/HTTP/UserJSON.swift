import Foundation
import RosterKit

/// Writes the envelope of a user or a page of users straight into bytes.
///
/// `JSONEncoder` spent half the server's CPU on a page of 50 users (profiled under wrk). This
/// writer makes each user's JSON object once, when the user is stored (`users.json`), and a
/// page joins the stored objects. It writes exactly the wire models' keys and values:
/// `UserJSONTests` decodes its output with `WireFormat`'s decoder and compares it with
/// `JSONEncoder`'s output of the same models, so the two cannot drift apart. Every other answer
/// (errors, health) still goes through `JSONEncoder`.
struct UserJSON {
    private(set) var bytes: [UInt8] = []

    static func envelope(_ user: User) -> [UInt8] {
        var writer = UserJSON()
        writer.bytes.reserveCapacity(320)
        writer.raw(#"{"success":true,"data":"#)
        writer.user(user)
        writer.raw(#","error":null}"#)
        return writer.bytes
    }

    static func envelope(_ page: Page<User>) -> [UInt8] {
        var writer = PageWriter(capacity: page.items.count)
        for user in page.items { writer.append(object: object(user)) }
        return writer.finish(page: page.page, perPage: page.perPage, total: page.total)
    }

    /// The envelope around a user's JSON object as stored.
    static func envelope(object: some Collection<UInt8>) -> [UInt8] {
        var writer = UserJSON()
        writer.bytes.reserveCapacity(object.count + 40)
        writer.raw(#"{"success":true,"data":"#)
        writer.bytes.append(contentsOf: object)
        writer.raw(#","error":null}"#)
        return writer.bytes
    }

    /// A user's JSON object: what `users.json` holds.
    static func object(_ user: User) -> [UInt8] {
        var writer = UserJSON()
        writer.bytes.reserveCapacity(256)
        writer.user(user)
        return writer.bytes
    }

    static func objectText(_ user: User) -> String {
        String(decoding: object(user), as: UTF8.self)
    }

    /// Builds a page envelope from users' JSON objects, one at a time.
    struct PageWriter {
        private var writer = UserJSON()
        private var count = 0

        init(capacity: Int) {
            writer.bytes.reserveCapacity(128 + capacity * 260)
            writer.raw(#"{"success":true,"data":{"items":["#)
        }

        mutating func append(object: some Collection<UInt8>) {
            if count > 0 { writer.bytes.append(0x2C) } // ,
            writer.bytes.append(contentsOf: object)
            count += 1
        }

        mutating func finish(page: Int, perPage: Int, total: Int) -> [UInt8] {
            writer.raw(#"],"page":"#)
            writer.integer(page)
            writer.raw(#","per_page":"#)
            writer.integer(perPage)
            writer.raw(#","total":"#)
            writer.integer(total)
            writer.raw(#"},"error":null}"#)
            return writer.bytes
        }
    }

    private mutating func user(_ user: User) {
        raw(#"{"id":"#)
        string(user.id)
        raw(#","name":"#)
        string(user.name)
        raw(#","email":"#)
        string(user.email)
        raw(#","role":"#)
        string(user.role.rawValue)
        raw(#","status":"#)
        string(user.status.rawValue)
        raw(#","created_at":""#)
        ISO8601Timestamp.append(user.createdAt, to: &bytes)
        raw(#"","updated_at":""#)
        ISO8601Timestamp.append(user.updatedAt, to: &bytes)
        raw(#"","groups":["#)
        for (index, group) in user.groups.enumerated() {
            raw(index == 0 ? #"{"id":"# : #",{"id":"#)
            string(group.id)
            raw(#","name":"#)
            string(group.name)
            raw("}")
        }
        raw("]}")
    }

    private mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func integer(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A JSON string: quote, backslash and C0 controls escaped, everything else as its UTF-8
    /// (slashes unescaped, as `WireFormat`'s encoder writes them).
    private mutating func string(_ text: String) {
        bytes.append(0x22)
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                escape(byte)
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(0x22)
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case 0x22: raw(#"\""#)
        case 0x5C: raw(#"\\"#)
        case 0x0A: raw(#"\n"#)
        case 0x0D: raw(#"\r"#)
        case 0x09: raw(#"\t"#)
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]) // \u00XX
        }
    }
}
