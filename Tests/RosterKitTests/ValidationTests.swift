import Testing
import RosterKit

@Suite("User validation")
struct ValidationTests {
    @Test func aGoodDraftHasNoProblems() {
        #expect(UserValidation.problems(in: UserDraft(name: "  محمد علي ", email: " m.ali@example.co.uk ", role: .admin, status: .active)).isEmpty)
    }

    @Test func namesAreTrimmedAndBounded() {
        #expect(UserValidation.nameProblem("   ") == "Name is required.")
        #expect(UserValidation.nameProblem(String(repeating: "é", count: 100)) == nil)
        #expect(UserValidation.nameProblem(" " + String(repeating: "界", count: 100) + " ") == nil)
        #expect(UserValidation.nameProblem(String(repeating: "a", count: 101)) == "Name must be at most 100 characters.")
        #expect(UserValidation.normalized(UserDraft(name: "\t Ana \n", email: " a@b.co ")) == UserDraft(name: "Ana", email: "a@b.co"))
    }

    @Test(arguments: ["Ana\u{1B}[2J", "A\u{0}na", "Ana\u{7F}", "Ana\u{9B}31m", "A\nna", "A\u{2028}na"])
    func controlCharactersAreRejected(_ name: String) {
        #expect(UserValidation.nameProblem(name) == "Name must not contain control characters.")
    }

    @Test(arguments: ["ana@example.com", "a.b+c@sub.example.org", "ü@exämple.de", "x@a-b.io"])
    func plausibleEmails(_ email: String) {
        #expect(UserValidation.emailProblem(email) == nil)
    }

    @Test(arguments: ["ana", "ana@", "@example.com", "ana@example", "a b@example.com", "ana@@example.com",
                      "ana@-example.com", "ana@example..com", ".ana@example.com", "ana@exa mple.com"])
    func implausibleEmails(_ email: String) {
        #expect(UserValidation.emailProblem(email) == "Email must look like name@example.com.")
    }

    @Test func everyBadFieldGetsItsOwnProblemInFieldOrder() {
        let problems = UserValidation.problems(in: UserDraft(name: "", email: "nope", role: .unknown("owner"), status: .unknown("gone")))
        #expect(problems.map(\.field) == ["name", "email", "role", "status"])
        #expect(problems[2].message == "Role must be one of admin, member, viewer.")
    }
}
