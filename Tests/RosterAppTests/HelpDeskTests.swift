import RosterKit
import RosterKitTestSupport
import Testing
@testable import RosterApp

/// The help desk's actions at the view-model level: a password typed twice with echo off
/// reaches the directory and nothing else; unlock as a bulk run; both hidden where the
/// directory's traits rule them out.
@Suite("Help desk", .timeLimit(.minutes(2)))
@MainActor
struct HelpDeskTests {
    let clock = ManualClock()
    static let ldapLike = DirectoryTraits(dialect: .ldap, canSort: false, hasRoles: false, statuses: [.active, .suspended],
                                          hasGroups: true, canResetPassword: true, canRequirePasswordChange: true, canUnlock: true)

    func app(_ directory: InMemoryDirectory, traits: DirectoryTraits = ldapLike) async -> AppModel {
        await directory.setTraits(traits)
        let app = AppModel(directory: directory, clock: clock, perPage: 50)
        app.setListViewport(height: 10)
        app.start()
        await app.activity.waitForLoads()
        #expect(await eventuallyAfterYields { app.traits == traits })
        return app
    }

    func type(_ text: String, into app: AppModel) {
        app.editLine(.insert(text))
        app.commitLine()
    }

    static func users(_ count: Int, locked: Set<Int> = []) -> [User] {
        (1...count).map { number in
            var user = User.fixture(number: number)
            user.status = locked.contains(number) ? InMemoryDirectory.lockedStatus : .active
            return user
        }
    }

    @Test func aPasswordTypedTwiceResetsTheMarkedUsersAndIsNeverShownOrLogged() async throws {
        let directory = InMemoryDirectory(users: Self.users(5))
        let app = await app(directory)
        app.toggleMark()
        app.toggleMark()
        app.startPasswordReset()
        let line = try #require(app.line)
        #expect(line.purpose.isMasked)
        #expect(line.label.contains("2 users"))
        type("Secret-Pass-1", into: app)
        guard case .newPasswordAgain = app.line?.purpose else { Issue.record("no second line"); return }
        type("Secret-Pass-1", into: app)
        guard case .choice(let menu) = app.topScreen else { Issue.record("no next-logon question: \(app.topScreen)"); return }
        #expect(menu.choose("y"))
        guard case .confirm(let question) = app.topScreen else { Issue.record("no confirmation"); return }
        #expect(question.message.contains("must change it"))
        #expect(!question.message.contains("Secret-Pass-1"))
        app.confirm()
        await app.activity.waitForLoads()

        let run = try #require(app.bulkRun)
        #expect(run.progress.succeeded == 2)
        let passwords = await directory.passwords
        for number in [1, 2] {
            let stored = try #require(passwords[User.fixture(number: number).id])
            #expect(stored.password == "Secret-Pass-1" && stored.mustChange)
        }
        #expect(passwords[User.fixture(number: 3).id] == nil, "only the marked users")
        #expect(!run.logLine.contains("Secret-Pass-1"))
        #expect(!"\(run.action)".contains("Secret-Pass-1"))
        #expect(app.statusMessage?.text.contains("Secret-Pass-1") == false)
        #expect(app.statusMessage?.text.hasPrefix("Reset the password of 2 users") == true, "\(app.statusMessage?.text ?? "")")
    }

    @Test func twoPasswordsThatDifferAskAgainAndSendNothing() async throws {
        let directory = InMemoryDirectory(users: Self.users(3))
        let app = await app(directory, traits: DirectoryTraits(dialect: .scim, canResetPassword: true))
        app.startPasswordReset()
        type("First-Pass-1", into: app)
        type("Other-Pass-2", into: app)
        #expect(app.line?.purpose == .newPassword, "back to the first line")
        #expect(app.line?.text == "", "what was typed is gone")
        #expect(app.line?.problem?.contains("differ") == true)
        app.startPasswordReset() // a line is open: nothing else starts
        type("", into: app)
        #expect(app.line?.problem != nil, "an empty password is refused")
        type("First-Pass-1", into: app)
        type("First-Pass-1", into: app)
        // No next-logon question where the directory has none: straight to the confirmation.
        guard case .confirm = app.topScreen else { Issue.record("no confirmation: \(app.topScreen)"); return }
        app.close()
        await app.activity.waitForLoads()
        #expect(await directory.passwords.isEmpty, "cancelled: nothing sent")
        #expect(await directory.calls.allSatisfy { if case .resetPassword = $0 { false } else { true } })
    }

    @Test func aTooShortPasswordIsAFailureInTheSummaryWithoutThePassword() async throws {
        let directory = InMemoryDirectory(users: Self.users(2))
        let app = await app(directory, traits: DirectoryTraits(dialect: .scim, canResetPassword: true))
        app.startPasswordReset()
        type("short", into: app)
        type("short", into: app)
        app.confirm()
        await app.activity.waitForLoads()
        let run = try #require(app.bulkRun)
        #expect(run.progress.failed == 1)
        #expect(run.failures.first?.reason.contains("too short") == true)
        #expect(!run.logLine.contains("short\""))
    }

    @Test func unlockIsABulkRunThatCountsTheUsersNotLocked() async throws {
        let directory = InMemoryDirectory(users: Self.users(4, locked: [1, 3]))
        let app = await app(directory)
        app.markAllMatching()
        app.startUnlock()
        guard case .confirm(let question) = app.topScreen else { Issue.record("no confirmation"); return }
        #expect(question.message.hasPrefix("Unlock 4 users?"))
        app.confirm()
        await app.activity.waitForLoads()
        let run = try #require(app.bulkRun)
        #expect(run.progress.succeeded == 2)
        #expect(run.progress.unchanged == 2)
        #expect(await directory.storedUser(id: User.fixture(number: 1).id)?.status == .active)
        #expect(await directory.storedUser(id: User.fixture(number: 3).id)?.status == .active)
    }

    @Test func aDirectoryThatCanDoNeitherOffersNeither() async throws {
        let directory = InMemoryDirectory(users: Self.users(2))
        let app = await app(directory, traits: .rosterAPI)
        app.startPasswordReset()
        #expect(app.line == nil)
        #expect(app.statusMessage?.text == "This directory cannot reset passwords")
        app.startUnlock()
        guard case .list = app.topScreen else { Issue.record("a question came: \(app.topScreen)"); return }
        app.openBulkMenu()
        guard case .choice(let menu) = app.topScreen else { Issue.record("no menu"); return }
        #expect(!menu.options.contains { $0.key == "p" || $0.key == "l" })
        #expect(await directory.calls.allSatisfy { $0.operation != .resetPassword && $0.operation != .unlock })
    }
}
