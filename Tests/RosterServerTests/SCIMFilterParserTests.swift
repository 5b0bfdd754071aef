import Testing
@testable import RosterServer

@Suite("SCIM filter grammar: the tree the parser makes")
struct SCIMFilterParserTests {
    private func path(_ name: String, _ sub: String? = nil) -> SCIMAttributePath {
        SCIMAttributePath(name: name, subAttribute: sub)
    }

    @Test("not binds tighter than and, and tighter than or")
    func precedence() throws {
        let tree = try SCIMFilterParser.parse(#"a eq "1" or b eq "2" and not (c pr)"#)
        #expect(tree == .or(.compare(path("a"), .eq, .string("1")), .and(.compare(path("b"), .eq, .string("2")), .not(.present(path("c"))))))
        let grouped = try SCIMFilterParser.parse(#"(a eq "1" or b eq "2") and c pr"#)
        #expect(grouped == .and(.or(.compare(path("a"), .eq, .string("1")), .compare(path("b"), .eq, .string("2"))), .present(path("c"))))
    }

    @Test("Value paths, URNs, literals and escapes")
    func pieces() throws {
        let valuePath = try SCIMFilterParser.parse(#"emails[type eq "work" and value co "@example.org"]"#)
        #expect(valuePath == .valuePath(path("emails"), .and(.compare(path("type"), .eq, .string("work")), .compare(path("value"), .co, .string("@example.org")))))
        let urn = try SCIMFilterParser.parse("urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value PR")
        #expect(urn == .present(SCIMAttributePath(schema: "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User", name: "manager", subAttribute: "value")))
        #expect(try SCIMFilterParser.parse("a GT 1.5e3") == .compare(path("a"), .gt, .number("1.5e3")))
        #expect(try SCIMFilterParser.parse("a eq false") == .compare(path("a"), .eq, .bool(false)))
        #expect(try SCIMFilterParser.parse("a eq null") == .compare(path("a"), .eq, .null))
        #expect(try SCIMFilterParser.parse(#"a eq "say \"hi\" \u00e9""#) == .compare(path("a"), .eq, .string("say \"hi\" é")))
    }

    @Test("Upper bounds for prefix ranges")
    func upperBound() {
        #expect(SCIMFilterSQL.upperBound(ofPrefix: "ab") == "ac")
        #expect(SCIMFilterSQL.upperBound(ofPrefix: "a\u{10FFFF}") == "b")
        #expect(SCIMFilterSQL.upperBound(ofPrefix: "") == nil)
    }

    @Test("Ordered JSON: members in order and numbers as written, byte for byte")
    func json() throws {
        let text = #"{"z":1.50,"a":[true,null,{"é":"\"q\"\n"}],"m":-0.0e+1}"#
        #expect(SCIMJSONWriter.text(try SCIMJSONParser.parse(text)) == text)
    }
}
