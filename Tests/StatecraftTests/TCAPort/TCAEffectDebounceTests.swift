import Clocks
import ConcurrencyExtras
import StatecraftTesting
import Testing

@testable import Statecraft

extension Engine {
  /// The Composable Architecture's `EffectDebounceTests`, ported to Statecraft's spelling: TCA
  /// subscribes to the debounced effect directly; here a store runs it and the values are
  /// received actions.
  @MainActor
  @Suite struct TCAEffectDebounceTests {
    enum Action: Equatable, Sendable { case debounce(Int), cancel, value(Int) }
    enum CancelID { case debounce }

    static func feature(
      _ clock: TestClock<Duration>, runs: LockIsolated<Int> = LockIsolated(0)
    ) -> Reduce<[Int], Action> {
      Reduce { values, action in
        switch action {
        case .debounce(let value):
          return .run { send in
            runs.withValue { $0 += 1 }
            await send(.value(value))
          }
          .debounce(id: CancelID.debounce, for: .seconds(1), clock: clock)
        case .cancel:
          return .cancel(id: CancelID.debounce)
        case .value(let value):
          values.append(value)
          return .none
        }
      }
    }

    @Test func debounce() async {
      let clock = TestClock()
      let store = TestStore(initialState: [Int]()) { Self.feature(clock) }
      await store.send(.debounce(1))
      await clock.advance(by: .milliseconds(500))
      await store.send(.debounce(2))
      await clock.advance(by: .milliseconds(500))
      await store.send(.debounce(3))
      await clock.advance(by: .milliseconds(500))
      await clock.advance(by: .milliseconds(500))
      await store.receive(.value(3)) { $0 = [3] }
      await clock.run()
      await store.finish()
    }

    @Test func debounceIsLazy() async {
      let clock = TestClock()
      let runs = LockIsolated(0)
      let store = TestStore(initialState: [Int]()) { Self.feature(clock, runs: runs) }
      await store.send(.debounce(1))
      #expect(runs.value == 0)
      await clock.advance(by: .milliseconds(500))
      #expect(runs.value == 0)
      await clock.advance(by: .milliseconds(500))
      await store.receive(.value(1)) { $0 = [1] }
      #expect(runs.value == 1)
    }

    @Test func debounceAfterTheWindowRunsAgain() async {
      let clock = TestClock()
      let store = TestStore(initialState: [Int]()) { Self.feature(clock) }
      await store.send(.debounce(1))
      await clock.advance(by: .seconds(1))
      await store.receive(.value(1)) { $0 = [1] }
      await store.send(.debounce(2))
      await clock.advance(by: .seconds(1))
      await store.receive(.value(2)) { $0 = [1, 2] }
    }

    @Test func cancellingTheIDDropsTheWaitingEffect() async {
      let clock = TestClock()
      let runs = LockIsolated(0)
      let store = TestStore(initialState: [Int]()) { Self.feature(clock, runs: runs) }
      await store.send(.debounce(1))
      await clock.advance(by: .milliseconds(500))
      await store.send(.cancel)
      await clock.run()
      #expect(runs.value == 0)
      await store.finish()
    }
  }
}
