import RosterKit
import RosterKitTestSupport
import Testing
import RosterApp

@Suite("UserDetailModel", .timeLimit(.minutes(1)))
@MainActor
struct UserDetailModelTests {
    let clock = ManualClock()
    let repository: InMemoryUserRepository
    let activity: Activity
    let detail: UserDetailModel
    let ana = searchDirectory[0]
    let bob = searchDirectory[5]
    let carla = searchDirectory[4]

    init() {
        repository = InMemoryUserRepository(users: searchDirectory)
        activity = Activity(clock: clock)
        detail = UserDetailModel(repository: repository, activity: activity)
    }

    /// Lets the selection settle and waits for the load it starts.
    func settle() async {
        await clock.advance(by: UserDetailModel.settleDelay)
        await activity.waitForIdle()
    }

    @Test func showsTheListsCopyAtOnceAndLoadsOnlyOnceTheSelectionSettles() async {
        var stale = ana
        stale.name = "Ana (old)"
        detail.show(stale)
        #expect(detail.state == .loading(previous: stale))
        #expect(detail.user == stale)
        await clock.advance(by: UserDetailModel.settleDelay - .milliseconds(1))
        await activity.waitForLoads()
        #expect(await repository.callCount(.get) == 0)

        await settle()
        #expect(await repository.calls == [.get(id: ana.id)])
        #expect(detail.state == .loaded(ana))
    }

    @Test func movingQuicklyLoadsOnlyWhereTheSelectionStops() async {
        detail.show(ana)
        await clock.advance(by: .milliseconds(50))
        detail.show(bob)
        await clock.advance(by: .milliseconds(50))
        detail.show(carla)
        #expect(detail.user == carla)
        await settle()
        #expect(await repository.calls == [.get(id: carla.id)])
        #expect(detail.state == .loaded(carla))
    }

    @Test func aStaleLoadIsCancelledAndItsAnswerNeverShown() async {
        let gate = await repository.holdNext(.get)
        detail.show(ana)
        await clock.advance(by: UserDetailModel.settleDelay)
        await gate.waitForArrivals()
        #expect(activity.isBusy)
        detail.show(bob)
        #expect(!activity.isBusy) // the stale load stopped counting
        // Not settle(): Ana's call, still held, counts until it returns.
        await clock.advance(by: UserDetailModel.settleDelay)
        #expect(await eventually { detail.state == .loaded(bob) })
        gate.open() // Ana's answer arrives last
        await activity.waitForIdle()
        #expect(detail.state == .loaded(bob))
    }

    @Test func aFailureKeepsTheListsCopyAndRetryLoads() async {
        await repository.failNext(.get, with: .timedOut)
        detail.show(ana)
        await settle()
        #expect(detail.state == .failed(.timedOut, previous: ana))
        #expect(detail.user == ana)

        #expect(detail.retry())
        #expect(detail.state == .loading(previous: ana))
        await activity.waitForLoads() // no settling: the person asked
        #expect(detail.state == .loaded(ana))
        #expect(await repository.callCount(.get) == 2)
    }

    @Test func aUserDeletedElsewhereSaysSo() async {
        await repository.remove(id: ana.id)
        detail.show(ana)
        await settle()
        #expect(detail.state.error?.status == 404)
        #expect(detail.user == ana)
    }

    @Test func retryWithNothingFailedDoesNothing() async {
        #expect(!detail.retry())
        detail.show(ana)
        await settle()
        #expect(!detail.retry())
        #expect(await repository.callCount(.get) == 1)
    }

    @Test func showingTheSameUserAgainAsksNothing() async {
        detail.show(ana)
        detail.show(ana)
        await settle()
        detail.show(ana)
        await settle()
        #expect(await repository.callCount(.get) == 1)
    }

    @Test func nothingSelectedClearsThePaneAndCancelsTheLoad() async {
        detail.show(ana)
        detail.show(nil)
        #expect(detail.state == .idle)
        await settle()
        #expect(await repository.callCount(.get) == 0)
        #expect(detail.state == .idle)
    }

    @Test func theServersCopyReplacesAnOlderOne() async {
        detail.show(ana)
        await settle()
        var renamed = ana
        renamed.name = "Ana Souza"
        await repository.insert(renamed)
        detail.show(bob)
        detail.show(ana)
        await settle()
        #expect(detail.state == .loaded(renamed))
    }
}
