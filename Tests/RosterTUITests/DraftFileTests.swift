import Foundation
import Logging
import RosterApp
import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterTUI

@Suite("The draft file")
struct DraftFileTests {
    let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    @Test func aDraftIsWrittenForItsOwnerOnlyAndReadBackWhole() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("roster-draft-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = DraftFile(path: folder.appendingPathComponent("state/roster/draft.json").path)
        #expect(file.read(logger: logger) == nil)

        var original = User.fixture(id: "u-7", name: "Ana Silva", email: "ana@example.com", role: .viewer, status: .invited)
        original.groups = [GroupReference(id: "g1", name: "Sales")]
        let draft = UnsavedDraft(original: original, name: "Ana Silva Costa", email: "ana@example.com", role: .admin, status: .active)
        file.write(draft, logger: logger)
        #expect(file.read(logger: logger) == draft)
        let permissions = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)

        file.remove()
        #expect(file.read(logger: logger) == nil)
    }

    @Test func aFileThatIsNotADraftIsLeftAlone() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("roster-draft-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "not json".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(DraftFile(path: path).read(logger: logger) == nil)
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func aDraftIsOfferedOnlyOnTheConnectionItWasKeptOn() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("roster-draft-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var draft = UnsavedDraft(original: nil, name: "Zoë", email: "zoe@example.com", role: .member, status: .active)
        draft.connection = "hr-scim"
        DraftFile(path: path).write(draft, logger: logger)
        let read = try #require(DraftFile(path: path).read(logger: logger))
        #expect(read.connection == "hr-scim")
        #expect(read.isOffered(on: "hr-scim"))
        #expect(!read.isOffered(on: "ad"), "another directory's user is not offered there")

        // A draft kept before connections were named says none: offered anywhere, as then.
        try #"{"name":"Zoë","email":"","userName":"","role":"member","status":"active"}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        let old = try #require(DraftFile(path: path).read(logger: logger))
        #expect(old.connection == nil)
        #expect(old.isOffered(on: "ad"))
    }
}
