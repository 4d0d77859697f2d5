import Clocks
import ConcurrencyExtras
import StatecraftTesting
import Testing

@testable import Statecraft

extension Engine {
  /// The Composable Architecture's `EffectThrottleTests`, ported to Statecraft's spelling: a
  /// store runs the throttled effect and its values are received actions. Each test ends right
  /// after its last value, with the throttle's window still open and holding nothing: the store
  /// doesn't count that window as a running effect.
  @MainActor
  @Suite struct TCAEffectThrottleTests {
    enum Action: Equatable, Sendable { case tap(Int), throttledResponse(Int) }
    enum CancelID { case throttle }

    static func feature(
      _ clock: TestClock<Duration>, latest: Bool, runs: LockIsolated<Int> = LockIsolated(0)
    ) -> Reduce<Int, Action> {
      Reduce { state, action in
        switch action {
        case .tap(let value):
          return .run { send in
            runs.withValue { $0 += 1 }
            await send(.throttledResponse(value))
          }
          .throttle(id: CancelID.throttle, for: .seconds(1), clock: clock, latest: latest)
        case .throttledResponse(let value):
          state = value
          return .none
        }
      }
    }

    @Test func throttleLatest() async {
      let clock = TestClock()
      let runs = LockIsolated(0)
      let store = TestStore(initialState: 0) { Self.feature(clock, latest: true, runs: runs) }
      await store.send(.tap(1))
      await store.receive(.throttledResponse(1)) { $0 = 1 }
      await store.send(.tap(2))
      await clock.advance(by: .milliseconds(250))
      await store.send(.tap(3))
      await clock.advance(by: .milliseconds(250))
      await store.send(.tap(4))
      await clock.advance(by: .milliseconds(250))
      await store.send(.tap(5))
      #expect(runs.value == 1)
      await clock.advance(by: .milliseconds(250))
      await store.receive(.throttledResponse(5)) { $0 = 5 }
      #expect(runs.value == 2)
    }

    @Test func throttleFirst() async {
      let clock = TestClock()
      let runs = LockIsolated(0)
      let store = TestStore(initialState: 0) { Self.feature(clock, latest: false, runs: runs) }
      await store.send(.tap(1))
      await store.receive(.throttledResponse(1)) { $0 = 1 }
      await store.send(.tap(2))
      await clock.advance(by: .milliseconds(250))
      await store.send(.tap(3))
      await clock.advance(by: .milliseconds(250))
      await store.send(.tap(4))
      await clock.advance(by: .milliseconds(250))
      await store.send(.tap(5))
      #expect(runs.value == 1)
      await clock.advance(by: .milliseconds(250))
      await store.receive(.throttledResponse(2)) { $0 = 2 }
      #expect(runs.value == 2)
    }

    @Test func throttleAfterInterval() async {
      let clock = TestClock()
      let store = TestStore(initialState: 0) { Self.feature(clock, latest: true) }
      await store.send(.tap(1))
      await store.receive(.throttledResponse(1)) { $0 = 1 }
      await clock.advance(by: .seconds(2))
      await store.send(.tap(2))
      await store.receive(.throttledResponse(2)) { $0 = 2 }
    }

    @Test func throttleEmitsFirstValueOnce() async {
      let clock = TestClock()
      let store = TestStore(initialState: 0) { Self.feature(clock, latest: false) }
      await store.send(.tap(1))
      await store.receive(.throttledResponse(1)) { $0 = 1 }
      await clock.advance(by: .milliseconds(500))
      await store.send(.tap(2))
      await clock.advance(by: .milliseconds(500))
      await store.receive(.throttledResponse(2)) { $0 = 2 }
    }

    @Test func throttleLatestAcrossTwoWindows() async {
      let clock = TestClock()
      let store = TestStore(initialState: 0) { Self.feature(clock, latest: true) }
      await store.send(.tap(1))
      await store.receive(.throttledResponse(1)) { $0 = 1 }
      await store.send(.tap(2))
      await clock.advance(by: .seconds(1))
      await store.receive(.throttledResponse(2)) { $0 = 2 }
      await store.send(.tap(3))
      await store.send(.tap(4))
      await clock.advance(by: .seconds(1))
      await store.receive(.throttledResponse(4)) { $0 = 4 }
    }
  }
}
