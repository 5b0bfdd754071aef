import RosterKit
import Testing
@testable import RosterApp

/// The review's packed people: every field comes back as it went in, whatever its script or
/// length, and keys match by their bytes through the index.
@Suite("Access review: packed people")
struct ReviewPeopleTests {
    @Test func unicodeEmptyAndUnusualFieldsComeBackAsTheyWentIn() {
        let given = [
            ReviewPerson(key: ReviewFold.key("Ωμέγα@Παράδειγμα.gr"), id: "uid=ωμέγα,ou=people", name: "Ὀδυσσεύς 🏛", email: "Ωμέγα@Παράδειγμα.gr",
                         role: .admin, status: .active),
            ReviewPerson(key: "", id: "", name: "", email: "", role: nil, status: .suspended),
            ReviewPerson(key: "jose\u{301}@x.org", id: "2", name: "José", email: "jos\u{e9}@x.org", role: .unknown("owner"), status: .unknown("locked")),
            ReviewPerson(key: "same@x.org", id: "3", name: "山田 太郎", email: "same@x.org", role: .viewer, status: .invited),
            ReviewPerson(key: "", id: "4", name: "No key", email: "nokey@x.org", role: .member, status: .active),
        ]
        let people = ReviewPeople(given)
        #expect(people.count == given.count)
        #expect(Array(people) == given)
        // Canonically equal but different bytes: the key keeps its own bytes.
        #expect(Array(people[2].key.utf8) == Array("jose\u{301}@x.org".utf8))
        #expect(people.isKeyEmpty(at: 1) && people.isKeyEmpty(at: 4) && !people.isKeyEmpty(at: 3))
        #expect(people.role(at: 2) == .unknown("owner") && people.status(at: 2) == .unknown("locked"))
        #expect(people.role(at: 1) == nil)
    }

    @Test func aHundredThousandPeopleRoundTripEveryField() {
        let roles: [Role?] = [nil, .admin, .member, .viewer, .unknown("r")]
        let statuses: [Status] = [.active, .suspended, .invited, .unknown("s")]
        func person(_ number: Int) -> ReviewPerson {
            let email = number % 3 == 0 ? "Person.\(number)@Example.com" : "person.\(number)@example.com"
            return ReviewPerson(key: number % 97 == 0 ? "" : ReviewFold.key(email), id: "id-\(number)",
                                name: number % 5 == 0 ? "Ἀθηνᾶ \(number)" : "Person \(number)", email: email,
                                role: roles[number % roles.count], status: statuses[number % statuses.count])
        }
        var people = ReviewPeople()
        people.reserve(people: 100_000, bytesEach: 40)
        for number in 0..<100_000 { people.append(person(number)) }
        #expect(people.count == 100_000)
        var wrong = 0
        for number in 0..<100_000 where people[number] != person(number) { wrong += 1 }
        #expect(wrong == 0)
        // Every keyed person is found by the index at its own position; the keyless by nobody.
        let index = ReviewPeople.KeyIndex(people)
        #expect(index.duplicates == 0)
        var misplaced = 0
        for number in 0..<100_000 {
            let found = index.position(ofKeyAt: number, in: people, indexed: people)
            if found != (number % 97 == 0 ? nil : number) { misplaced += 1 }
        }
        #expect(misplaced == 0)
    }

    @Test func theIndexPrefersAnActivePersonAmongDuplicates() {
        let people = ReviewPeople([
            ReviewPerson(key: "a@x.org", id: "1", name: "A", email: "a@x.org", role: nil, status: .suspended),
            ReviewPerson(key: "a@x.org", id: "2", name: "A", email: "A@x.org", role: nil, status: .active),
            ReviewPerson(key: "a@x.org", id: "3", name: "A", email: "a@x.org", role: nil, status: .active),
        ])
        let index = ReviewPeople.KeyIndex(people)
        #expect(index.duplicates == 2)
        #expect(index.position(ofKeyAt: 0, in: people, indexed: people) == 1)
    }
}
