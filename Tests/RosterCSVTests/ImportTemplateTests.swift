import Foundation
import RosterKit
import Testing
@testable import RosterCSV

/// The header lines of the files administrators have, read by meaning; and the format's edges.
@Suite("Import templates")
struct ImportTemplateTests {
    func plan(_ text: String, mapping: ImportMapping? = nil) throws -> ImportPlan {
        try ImportFileReader.plan(data: Data(text.utf8), path: "/tmp/users.csv", mapping: mapping)
    }

    @Test func googleWorkspacesBulkUploadTemplate() throws {
        let header = "First Name [Required],Last Name [Required],Email Address [Required],Password [Required],"
            + "Password Hash Function [UPLOAD ONLY],Org Unit Path [Required],New Primary Email [UPLOAD ONLY],Recovery Email,"
            + "Employee Title,Department,New Status [UPLOAD ONLY]"
        let plan = try plan(header + "\r\nAna,Silva,ana@example.com,secret,,/,,,Engineer,R&D,Suspended\r\n")
        #expect(plan.mapping.fields == [.firstName, .lastName, .email, nil, nil, nil, nil, nil, nil, nil, .status])
        let row = try #require(plan.rows.first)
        #expect(row.name == "Ana Silva" && row.email == "ana@example.com" && row.status == .suspended)
        #expect(row.problem == nil)
    }

    @Test func entraIDsBulkCreateTemplateWithItsVersionLineAndInvertedBlockSignIn() throws {
        let text = """
            version:v1.0\r
            Name [displayName] Required,User name [userPrincipalName] Required,Initial password [passwordProfile] Required,\
            Block sign in (Yes/No) [accountEnabled] Required,First name [givenName],Last name [surname],Job title [jobTitle],\
            Department [department],Usage location [usageLocation]\r
            Ana Silva,ana@example.com,Secret-1,No,Ana,Silva,Engineer,R&D,PT\r
            Bo Berg,bo@example.com,Secret-2,Yes,Bo,Berg,,,SE\r

            """
        let plan = try plan(text)
        #expect(plan.mapping.fields == [.name, .email, nil, .blockSignIn, .firstName, .lastName, nil, nil, nil])
        #expect(plan.rows.map(\.line) == [3, 4], "lines as an editor counts them, the version line included")
        #expect(plan.rows.map(\.status) == [.active, .suspended], "Block sign in: Yes is suspended")
        #expect(plan.rows.map(\.name) == ["Ana Silva", "Bo Berg"], "the name column wins over first and last")
    }

    @Test func oktasTemplate() throws {
        let plan = try plan("login,firstName,lastName,middleName,email,title,department\nana.silva,Ana,Silva,,ana@example.com,Engineer,R&D\n")
        #expect(plan.mapping.fields == [.login, .firstName, .lastName, nil, .email, nil, nil])
        #expect(plan.rows.first?.draft == UserDraft(name: "Ana Silva", email: "ana@example.com", userName: "ana.silva"))
        let loginOnly = try self.plan("login,firstName\nana.silva,Ana\n")
        #expect(loginOnly.rows.first?.isValid == true && loginOnly.rows.first?.draft == nil,
                "matched by login it can update a user; without an email it cannot create one")
    }

    @Test func rostersOwnExportAndTheSCIMAndLDAPAttributes() throws {
        let export = try plan("id,name,email,role,status,groups,created_at\nu1,Ana,ana@example.com,admin,active,Sales; Ops,2026-01-01T00:00:00Z\n")
        #expect(export.mapping.fields == [nil, .name, .email, .role, .status, .groups, nil])
        #expect(export.rows.first?.groups == ["Sales", "Ops"])
        let scim = try plan("userName,displayName,emails[type eq \"work\"].value,active,title\nana,Ana,ana@example.com,false,Eng\n")
        #expect(scim.mapping.fields == [.login, .name, .email, .enabled, nil])
        #expect(scim.rows.first?.status == .suspended)
        let ldap = try plan("uid;cn;givenName;sn;mail;memberOf\nana;Ana Silva;Ana;Silva;ana@example.com;Sales\n")
        #expect(ldap.mapping.fields == [.login, .name, .firstName, .lastName, .email, .groups])
    }

    @Test func aColumnMappedByHandIsReadAndAFieldMovesFromTheColumnThatHadIt() throws {
        let text = "Given,Family,Work address,Mail\nAna,Silva,ana@example.com,old@example.com\n"
        let first = try plan(text)
        #expect(first.mapping.fields == [nil, nil, nil, .email])
        var mapping = first.mapping
        mapping.assign(.firstName, toColumn: 0)
        mapping.assign(.lastName, toColumn: 1)
        mapping.assign(.email, toColumn: 2)
        #expect(mapping.fields == [.firstName, .lastName, .email, nil], "email left the Mail column")
        let mapped = try plan(text, mapping: mapping)
        #expect(mapped.rows.first?.draft == UserDraft(name: "Ana Silva", email: "ana@example.com"))
    }

    @Test func aMappingIsRememberedPerHeaderSetInAPrivateFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("roster-map-\(UUID().uuidString)/state")
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let store = ImportMappingStore(path: folder.appendingPathComponent("import-mappings.json").path)
        let headers = ["Given", "Family", "Work address"]
        #expect(store.mapping(for: headers) == nil)
        var mapping = ImportMapping(headers: headers)
        mapping.assign(.email, toColumn: 2)
        try store.remember(mapping)
        #expect(store.mapping(for: headers)?.fields == [nil, nil, .email])
        #expect(store.mapping(for: ["given", "family", "work_address"])?.fields == [nil, nil, .email], "the same headers, written otherwise")
        #expect(store.mapping(for: ["Given", "Family"]) == nil)
        let file = try FileManager.default.attributesOfItem(atPath: store.path)
        let dir = try FileManager.default.attributesOfItem(atPath: folder.path)
        #expect((file[.posixPermissions] as? Int) == 0o600 && (dir[.posixPermissions] as? Int) == 0o700)
    }

    @Test func bomTabAndSemicolonSeparatedAndFormulasWrittenByAnExportReadBack() throws {
        let bom = try ImportFileReader.plan(data: Data([0xEF, 0xBB, 0xBF] + Array("email\tname\na@example.com\tAna\n".utf8)), path: "/tmp/x.csv")
        #expect(bom.mapping.fields == [.email, .name] && bom.rows.first?.name == "Ana")
        let semi = try plan("email;name\r\nb@example.com;\"Berg; Bo\"\r\n")
        #expect(semi.rows.first?.name == "Berg; Bo")
        let formula = try plan("email,name\nc@example.com,\"'=1+2\"\nd@example.com,'quoted\n")
        #expect(formula.rows.map(\.name) == ["=1+2", "'quoted"], "the export's guard undone; a person's own apostrophe kept")
    }

    @Test func aHundredThousandRowsArePreviewedWithinAMemoryBound() throws {
        // 100,000 rows of a wide template: about 20 MB on disk. The reader holds one block and
        // one record at a time, never the file.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("roster-big-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        let notes = String(repeating: "x", count: 160)
        try handle.write(contentsOf: Data("First Name [Required],Last Name [Required],Email Address [Required],Notes\r\n".utf8))
        var chunk = ""
        for number in 1...100_000 {
            chunk += "First\(number),Last,user\(number)@example.com,\(notes)\r\n"
            if number % 5_000 == 0 {
                try handle.write(contentsOf: Data(chunk.utf8))
                chunk = ""
            }
        }
        try handle.close()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let reader = try CSVRecordReader(path: path)
        let plan = try ImportFileReader.plan(reader, mapping: nil)
        #expect(plan.rows.count == 100_000 && plan.validCount == 100_000)
        #expect(reader.bytesRead == size)
        #expect(reader.peakBufferedBytes <= CSVRecordReader.blockSize + 1_024, "at most a block and a record: \(reader.peakBufferedBytes)")
        #expect(size > 19_000_000)
    }
}
