import RosterKit
import RosterKitTestSupport
import Testing
import RosterApp

@Suite("UserDetailModel", .timeLimit(.minutes(5)))
@MainActor
struct UserDetailModelTests {
    let clock = ManualClock()
    let repository: InMemoryDirectory
    let activity: Activity
    let detail: UserDetailModel
    let ana = searchDirectory[0]
    let bob = searchDirectory[5]
    let carla = searchDirectory[4]

    init() {
        repository = InMemoryDirectory(users: searchDirectory)
        activity = Activity(clock: clock)
        detail = UserDetailModel(directory: repository, activity: activity)
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
        #expect(detail.user == ana, "the pane stays on the first user while the selection moves")
        #expect(detail.pendingUserID == carla.id)
        await settle()
        #expect(await repository.calls == [.get(id: carla.id)])
        #expect(detail.state == .loaded(carla))
    }

    @Test func aStaleLoadIsCancelledAndItsAnswerNeverShown() async {
        let gate = await repository.holdNext(.get)
        detail.show(ana)
        await clock.advance(by: UserDetailModel.settleDelay)
        await gate.waitForArrivals()
        #expect(!activity.isBusy, "a quick check turns no spinner")
        await clock.advance(by: Activity.backgroundGrace)
        #expect(await eventuallyAfterYields { activity.isBusy }, "a slow one does")
        detail.show(bob)
        #expect(!activity.isBusy) // the stale load stopped counting
        // Not settle(): Ana's call, still held, counts until it returns.
        await clock.advance(by: UserDetailModel.settleDelay)
        #expect(await eventuallyAfterYields { detail.state == .loaded(bob) })
        gate.open() // Ana's answer arrives last
        await activity.waitForIdle()
        #expect(detail.state == .loaded(bob))
    }

    @Test func thePaneMovesOnlyOnceTheSelectionRests() async {
        detail.show(ana)
        await settle()
        detail.show(bob)
        #expect(detail.user == ana)
        await clock.advance(by: UserDetailModel.settleDelay - .milliseconds(1))
        #expect(detail.user == ana)
        await settle()
        #expect(detail.state == .loaded(bob))
        #expect(await repository.calls == [.get(id: ana.id), .get(id: bob.id)])
    }

    @Test func comingBackBeforeThePaneMovesAsksNothing() async {
        detail.show(ana)
        await settle()
        detail.show(bob)
        detail.show(ana)
        #expect(detail.pendingUserID == nil)
        await settle()
        #expect(detail.state == .loaded(ana))
        #expect(await repository.calls == [.get(id: ana.id)])
    }

    @Test func comingBackAfterItsFetchWasCancelledFetchesAgain() async {
        let gate = await repository.holdNext(.get)
        detail.show(ana)
        await clock.advance(by: UserDetailModel.settleDelay)
        await gate.waitForArrivals()
        detail.show(bob)      // cancels Ana's fetch
        detail.show(ana)
        gate.open()
        await settle()
        #expect(detail.state == .loaded(ana))
        #expect(await repository.callCount(.get) == 2)
        #expect(!activity.isBusy)
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
        await settle()
        detail.show(ana)
        await settle()
        #expect(detail.state == .loaded(renamed))
    }

    @Test func aSavedUserShowsAtOnceWithoutAskingAgain() async {
        detail.show(ana)
        await settle()
        detail.show(bob)
        var renamed = ana
        renamed.name = "Ana Souza"
        detail.showSaved(renamed)
        #expect(detail.state == .loaded(renamed))
        #expect(detail.pendingUserID == nil)
        await settle()
        #expect(await repository.callCount(.get) == 1)
    }
}
