import RosterKit
import RosterKitTestSupport
import Testing
import RosterApp

@Suite("ConfirmModel", .timeLimit(.minutes(5)))
@MainActor
struct ConfirmModelTests {
    let activity = Activity(clock: ManualClock())
    let repository = InMemoryDirectory(users: searchDirectory)

    func deleteAna() -> (ConfirmModel, () -> [ConfirmModel.Outcome]) {
        let repository = self.repository
        let model = ConfirmModel(
            title: "Delete user", message: "Delete Ana Silva?", confirmLabel: "Delete", isDestructive: true,
            activity: activity, action: { _ = try await repository.deleteUser(id: "p-1") })
        var outcomes: [ConfirmModel.Outcome] = []
        model.onFinish = { outcomes.append($0) }
        return (model, { outcomes })
    }

    @Test func aQuestionWithoutARequestFinishesAtOnce() {
        let model = ConfirmModel(title: "Discard changes?", message: "", confirmLabel: "Discard", activity: activity)
        var outcomes: [ConfirmModel.Outcome] = []
        model.onFinish = { outcomes.append($0) }
        #expect(model.phase == .asking)
        model.confirm()
        #expect(model.phase == .finished)
        model.confirm()
        model.cancel()
        #expect(outcomes == [.confirmed])
    }

    @Test func cancellingAsksNothing() async {
        let (model, outcomes) = deleteAna()
        model.cancel()
        #expect(model.phase == .finished)
        #expect(outcomes() == [.cancelled])
        await activity.waitForLoads()
        #expect(await repository.callCount(.delete) == 0)
    }

    @Test func confirmingRunsTheRequestOnceAndFinishesWhenItSucceeds() async {
        let (model, outcomes) = deleteAna()
        let gate = await repository.holdNext(.delete)
        model.confirm()
        #expect(model.phase == .working)
        #expect(activity.isBusy)
        model.confirm() // a second y while it runs
        await gate.waitForArrivals()
        #expect(outcomes().isEmpty)
        gate.open()
        await activity.waitForLoads()
        #expect(model.phase == .finished)
        #expect(outcomes() == [.confirmed])
        #expect(await repository.callCount(.delete) == 1)
        #expect(await repository.storedUser(id: "p-1") == nil)
    }

    @Test func aFailureStaysInTheDialogAndRetryRunsItAgain() async {
        let (model, outcomes) = deleteAna()
        await repository.failNext(.delete, with: .connectionLost)
        model.confirm()
        await activity.waitForLoads()
        #expect(model.phase == .failed(.connectionLost))
        #expect(outcomes().isEmpty)

        #expect(model.retry())
        #expect(model.phase == .working)
        await activity.waitForLoads()
        #expect(model.phase == .finished)
        #expect(outcomes() == [.confirmed])
        #expect(await repository.callCount(.delete) == 2)
    }

    @Test func cancellingAfterAFailureClosesWithoutTryingAgain() async {
        let (model, outcomes) = deleteAna()
        await repository.failNext(.delete, with: .timedOut)
        model.confirm()
        await activity.waitForLoads()
        model.cancel()
        #expect(model.phase == .finished)
        #expect(outcomes() == [.cancelled])
        #expect(await repository.callCount(.delete) == 1)
        #expect(await repository.storedUser(id: "p-1") != nil)
    }

    @Test func retryOnlyAfterAFailure() async {
        let (model, _) = deleteAna()
        #expect(!model.retry())
        #expect(model.phase == .asking)
    }

    @Test func cancellingWhileItRunsStopsWaiting() async {
        let (model, outcomes) = deleteAna()
        let gate = await repository.holdNext(.delete)
        model.confirm()
        await gate.waitForArrivals()
        model.cancel()
        #expect(model.phase == .finished)
        #expect(!activity.isBusy)
        gate.open()
        await activity.waitForLoads()
        #expect(outcomes() == [.cancelled]) // the late answer does not finish it twice
    }
}
