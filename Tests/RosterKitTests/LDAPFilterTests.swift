import Foundation
@testable import RosterKit
@testable import RosterLDAP
import Testing

@Suite("LDAP filters and DNs")
struct LDAPFilterTests {
    @Test("RFC 4515: the characters that could end or widen a filter are escaped")
    func escaping() {
        #expect(LDAPFilter.escape("*)(uid=*") == "\\2a\\29\\28uid=\\2a")
        #expect(LDAPFilter.escape("a\\b") == "a\\5cb")
        #expect(LDAPFilter.escape("nul\u{0}") == "nul\\00")
        #expect(LDAPFilter.contains("cn", "Zoë") == "(cn=*Zo\\c3\\ab*)")
        #expect(LDAPFilter.all(["(a=1)"]) == "(a=1)")
        #expect(LDAPFilter.all(["(a=1)", "(b=2)"]) == "(&(a=1)(b=2))")
        #expect(LDAPFilter.any(["(a=1)", "(b=2)"]) == "(|(a=1)(b=2))")
    }

    @Test("RFC 4514: DN values are escaped and read back")
    func distinguishedNames() {
        #expect(LDAPDN.child("cn", "Smith, John", of: "dc=x") == "cn=Smith\\, John,dc=x")
        #expect(LDAPDN.escape(" #lead") == "\\ #lead")
        #expect(LDAPDN.firstValue("cn=Smith\\, John,dc=x") == "Smith, John")
        #expect(LDAPDN.firstValue("cn=\\D0\\A4\\D0\\B8\\D0\\BD,ou=groups") == "Фин")
        #expect(LDAPDN.firstValue("uid=user1,ou=people,dc=x") == "user1")
        #expect(LDAPDN.firstValue("uid=a+cn=b,dc=x") == "a")
        #expect(LDAPDN.firstValue("cn=Фин Ана,ou=x") == "Фин Ана")
        #expect(LDAPDN.firstValue("cn=trailing\\") == "trailing\\")
        #expect(LDAPDN.firstValue("no equals sign") == "no equals sign")
        // Whatever a value holds, escaped into a DN it reads back the same.
        for value in ["Smith, John", " lead and trail ", "#hash", "a+b=c;d<e>\"q\"", "back\\slash", "nul\0byte",
                      "أحمد الفاسي", "é́ combining", "👩‍💻 emoji", "\u{1B}[31mred"] {
            #expect(LDAPDN.firstValue(LDAPDN.child("cn", value, of: "dc=x")) == value, "\(value.debugDescription)")
        }
        // Attribute names are looked up whatever their case, as LDAP compares them.
        let entry = LDAPEntry(dn: "uid=a", attributes: [LDAPEntry.key("givenName"): ["Ana"], LDAPEntry.key("sn"): ["Silva"]])
        #expect(LDAPEntry.key("pwdAccountLockedTime") == "pwdaccountlockedtime" && LDAPEntry.key("2.5.4.3") == "2.5.4.3")
        #expect(entry.values("GIVENNAME") == ["Ana"] && entry.first("givenname") == "Ana" && entry.text("SN") == "Silva")
        // The parent after the first RDN: an escaped comma, or an escaped backslash before a real one.
        #expect(LDAPDN.parent(of: "CN=Ops\\, night,CN=Users,DC=x") == "CN=Users,DC=x")
        #expect(LDAPDN.parent(of: "cn=Ops\\2C night,ou=groups") == "ou=groups")
        #expect(LDAPDN.parent(of: "cn=a\\\\,ou=groups") == "ou=groups")
        #expect(LDAPDN.parent(of: "dc=test") == nil)
        // AD's pre-Windows 2000 name of a new group leaves out what AD refuses there.
        #expect(LDAPDirectory.accountName(for: "Ops, night [2]") == "Ops_ night _2_")
        #expect(LDAPDN.same("CN=A, DC=x", "cn=a,dc=x"))
    }

    @Test("GeneralizedTime, with and without fractions")
    func generalizedTime() {
        let date = LDAPUserMapping.generalizedTime("20261125220239Z")
        #expect(date == ISO8601Timestamp.parse("2026-11-25T22:02:39Z"))
        #expect(LDAPUserMapping.generalizedTime("20261125220239.0Z") == date)
        #expect(LDAPUserMapping.generalizedTime("yesterday") == nil)
        #expect(LDAPUserMapping.generalizedTime("20261325220239Z") == nil, "month 13")
        #expect(LDAPUserMapping.generalizedTime("2026112522023xZ") == nil)
        #expect(LDAPUserMapping.generalizedTime("20261125220239") == nil, "no Z: local time is not read as UTC")
    }

    @Test("a value of white space alone is no text; other values come as they are")
    func blankValues() {
        let entry = LDAPEntry(dn: "uid=a,dc=x", attributes: [
            "title": [" \t\u{00A0} "], "cn": ["  Ann  "], "sn": ["\u{0645}\u{0631}\u{064A}\u{0645}"]])
        #expect(entry.text("title") == nil)
        #expect(entry.text("cn") == "  Ann  ")
        #expect(entry.text("sn") == "\u{0645}\u{0631}\u{064A}\u{0645}")
        #expect(entry.text("mail") == nil)
    }

    @Test("an edit names only the attributes behind changed fields")
    func onlyChanges() throws {
        let schema = LDAPSchema(vendor: .openLDAP, base: "dc=x", settings: LDAPSchemaSettings())
        let entry = LDAPEntry(dn: "uid=a,dc=x", attributes: [
            "displayname": ["Ann Lee"], "cn": ["Ann Lee"], "uid": ["a"], "mail": ["a@x.org", "ann@home.org"], "title": ["Boss"]])
        let user = LDAPUserMapping.user(from: entry, schema: schema)
        #expect(try LDAPUserMapping.modifications(from: user.draft, comparedWith: entry, schema: schema).isEmpty)
        var draft = user.draft
        draft.email = "lee@x.org"
        draft.status = .suspended
        let changes = try LDAPUserMapping.modifications(from: draft, comparedWith: entry, schema: schema)
        #expect(changes == [LDAPModification(.replace, "mail", ["lee@x.org", "ann@home.org"]),
                            LDAPModification(.replace, "pwdAccountLockedTime", ["000001010000Z"])])
        draft = user.draft
        draft.userName = "b"
        #expect(throws: APIError.self) { try LDAPUserMapping.modifications(from: draft, comparedWith: entry, schema: schema) }
    }
}
