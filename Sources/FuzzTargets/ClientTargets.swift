import CNCursesW
import Foundation
@testable import RosterCSV
@testable import RosterKit
@testable import RosterTUI

/// Roster's readers of what a server or a file sends: pages of users, SCIM envelopes, CSV
/// imports, and the terminal's keys.
enum ClientTargets {
    static let all: [FuzzTarget] = [
        FuzzTarget(name: "page-scanner", run: pageScanner),
        FuzzTarget(name: "scim-envelopes", run: scimEnvelopes),
        FuzzTarget(name: "csv-import", run: csvImport),
        FuzzTarget(name: "key-decoder", run: keyDecoder),
        FuzzTarget(name: "settings-file", run: settingsFile),
    ]

    /// `PageScanner` either declines or reads exactly the page `JSONDecoder` reads.
    static func pageScanner(_ bytes: [UInt8]) {
        let body = Data(bytes)
        guard let scanned = PageScanner.page(in: body) else { return }
        let decoded = try? WireFormat.makeDecoder().decode(APIResponse<Page<User>>.self, from: body)
        fuzzCheck(decoded?.data == scanned, "PageScanner read \(scanned), JSONDecoder \(String(describing: decoded))")
    }

    /// A SCIM service's answers: a resource, a list, its configuration and schema, an error.
    static func scimEnvelopes(_ bytes: [UInt8]) {
        let body = Data(bytes)
        // `JSONValue(parsing:)` reads what JSONDecoder reads, and refuses what it refuses.
        let parsed = try? JSONValue(parsing: body)
        let decoded = try? JSONDecoder().decode(JSONValue.self, from: body)
        fuzzCheck(parsed == decoded, "JSONValue(parsing:) read \(String(describing: parsed)), JSONDecoder \(String(describing: decoded))")
        _ = SCIMError.errorBody(from: body)
        guard let value = try? SCIMDirectory.decode(TransportResponse(status: 200, body: body)) else { return }
        _ = SCIMUserMapping.user(from: value)
        _ = SCIMGroupMapping.group(from: value)
        _ = SCIMGroupMapping.memberIDs(of: value)
        for resource in value[attribute: "Resources"]?.arrayValue ?? [] {
            if let user = SCIMUserMapping.user(from: resource) {
                // What Roster writes back for a user it read stays a user it reads the same.
                let draft = UserDraft(name: user.name, email: user.email, role: user.role, status: user.status)
                let written = SCIMUserMapping.applying(draft, to: resource, capabilities: SCIMCapabilities())
                fuzzCheck(SCIMUserMapping.user(from: written)?.id == user.id, "a user written back lost its id")
            }
        }
        _ = SCIMCapabilities.from(serviceProviderConfig: value, userSchema: value)
    }

    /// An import file: every record, then the whole plan; records start on increasing lines.
    static func csvImport(_ bytes: [UInt8]) {
        let data = Data(bytes)
        let reader = CSVRecordReader(data: data, path: "fuzz.csv")
        var lastLine = 0
        while let record = try? reader.next() {
            fuzzCheck(record.line > lastLine, "record lines go \(lastLine) then \(record.line)")
            lastLine = record.line
        }
        _ = try? ImportFileReader.plan(data: data, path: "fuzz.csv")
    }

    /// The settings file as `SettingsFile.load` reads it: not UTF-8 is refused first, then
    /// Foundation's JSON5 reader decides and `JSON5Places` walks the text for the places in its
    /// messages; each place is in the text.
    static func settingsFile(_ bytes: [UInt8]) {
        if let place = JSON5Places.invalidUTF8(in: bytes) {
            // What `SettingsFile.load` refuses before Foundation's reader, which can stop on it.
            let lines = bytes.count(where: { $0 == UInt8(ascii: "\n") }) + 1
            return fuzzCheck(place.line <= lines && place.column >= 1, "the invalid byte's place \(place) is outside the text")
        }
        let decoder = JSONDecoder()
        decoder.allowsJSON5 = true
        _ = try? decoder.decode(JSONValue.self, from: Data(bytes))
        let text = String(decoding: bytes, as: UTF8.self)
        let places = JSON5Places(text)
        let lines = text.utf8.count(where: { $0 == UInt8(ascii: "\n") }) + 1
        for place in [places.problem?.place].compactMap({ $0 }) + Array(places.keys.values) + Array(places.values.values) {
            fuzzCheck(place.line >= 1 && place.line <= lines && place.column >= 1, "a place \(place) outside the text")
        }
    }

    /// What `wget_wch` and `getmouse` hand the decoder: characters, function key codes, mouse events.
    static func keyDecoder(_ bytes: [UInt8]) {
        var rest = bytes[...]
        while rest.count >= 5 {
            let word = rest.dropFirst().prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            switch rest.first! % 3 {
            case 0: _ = KeyDecoder.character(word)
            case 1: _ = KeyDecoder.functionKey(Int32(bitPattern: word))
            default:
                let event = MEVENT(id: 0, x: Int32(word & 0xFFFF), y: Int32(word >> 16), z: 0, bstate: mmask_t(word))
                _ = KeyDecoder.mouse(event)
            }
            rest = rest.dropFirst(5)
        }
    }
}
