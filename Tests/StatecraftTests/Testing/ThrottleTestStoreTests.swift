import Clocks
import StatecraftTesting
import Testing

@testable import Statecraft

extension Engine {
  /// A throttle window that holds nothing back is bookkeeping, not a running effect: a test
  /// ends without advancing the clock past it.
  @MainActor
  @Suite struct ThrottleTestStoreTests {
    struct Feature: Reducer {
      struct State: Equatable, Sendable { var saved: [Int] = [] }
      enum Action: Equatable, Sendable { case scrolled(Int), save(Int) }
      enum CancelID { case save }
      let clock: TestClock<Duration>
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .scrolled(let offset):
          return .send(.save(offset))
            .throttle(id: CancelID.save, for: .seconds(1), clock: clock, latest: true)
        case .save(let offset):
          state.saved.append(offset)
          return .none
        }
      }
    }

    @Test func anOpenWindowThatHoldsNothingBackIsNotARunningEffect() async {
      let store = TestStore(initialState: Feature.State()) { Feature(clock: TestClock()) }
      await store.send(.scrolled(1))
      await store.receive(.save(1)) { $0.saved = [1] }
      await store.finish()
    }

    @Test func aWindowThatHoldsAnEffectBackIsRunningUntilItEmits() async {
      let clock = TestClock()
      let store = TestStore(initialState: Feature.State()) { Feature(clock: clock) }
      await store.send(.scrolled(1))
      await store.receive(.save(1)) { $0.saved = [1] }
      await store.send(.scrolled(2))
      await expectOneFailure(containing: ["1 effect is still running"]) {
        await store.finish(timeout: .milliseconds(10))
      }
    }

    @Test func aTestEndsRightAfterTheHeldBackEffectEmits() async {
      let clock = TestClock()
      let store = TestStore(initialState: Feature.State()) { Feature(clock: clock) }
      await store.send(.scrolled(1))
      await store.receive(.save(1)) { $0.saved = [1] }
      await store.send(.scrolled(2))
      await store.send(.scrolled(3))
      await clock.advance(by: .seconds(1))
      await store.receive(.save(3)) { $0.saved = [1, 3] }
      await store.finish()
    }
  }
}
