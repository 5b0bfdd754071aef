import RosterKit
import Testing
@testable import RosterApp

@Suite("LoadState")
struct LoadStateTests {
    @Test func idleShowsNothing() {
        let state = LoadState<Int>.idle
        #expect(state.value == nil)
        #expect(!state.isLoading)
        #expect(state.error == nil)
    }

    @Test func firstLoadHasNothingToShowUntilItSucceeds() {
        var state = LoadState<Int>.idle
        state.startLoading()
        #expect(state == .loading(previous: nil))
        #expect(state.isLoading)
        state.succeed(with: 1)
        #expect(state == .loaded(1))
        #expect(state.value == 1)
    }

    @Test func reloadKeepsTheLastGoodValueWhileItRuns() {
        var state = LoadState<Int>.loaded(1)
        state.startLoading()
        #expect(state == .loading(previous: 1))
        #expect(state.value == 1)
    }

    @Test func failureKeepsTheLastGoodValue() {
        var state = LoadState<Int>.loaded(1)
        state.startLoading()
        state.fail(with: .timedOut)
        #expect(state == .failed(.timedOut, previous: 1))
        #expect(state.value == 1)
        #expect(state.error == .timedOut)
        #expect(!state.isLoading)
    }

    @Test func failedFirstLoadHasNoValue() {
        var state = LoadState<Int>.idle
        state.startLoading()
        state.fail(with: .offline)
        #expect(state == .failed(.offline, previous: nil))
        #expect(state.value == nil)
    }

    @Test func retryAfterFailureStillShowsTheLastGoodValueThenTheNewOne() {
        var state = LoadState<Int>.failed(.offline, previous: 1)
        state.startLoading()
        #expect(state == .loading(previous: 1))
        state.succeed(with: 2)
        #expect(state == .loaded(2))
    }

    @Test func updateValueKeepsThePhase() {
        var loaded = LoadState<[Int]>.loaded([1])
        loaded.updateValue { $0.append(2) }
        #expect(loaded == .loaded([1, 2]))

        var loading = LoadState<[Int]>.loading(previous: [1])
        loading.updateValue { $0.append(2) }
        #expect(loading == .loading(previous: [1, 2]))

        var failed = LoadState<[Int]>.failed(.timedOut, previous: [1])
        failed.updateValue { $0.append(2) }
        #expect(failed == .failed(.timedOut, previous: [1, 2]))
    }

    @Test func updateValueDoesNothingWithoutAValue() {
        for var state in [LoadState<[Int]>.idle, .loading(previous: nil), .failed(.offline, previous: nil)] {
            let before = state
            state.updateValue { $0.append(1) }
            #expect(state == before)
        }
    }
}
