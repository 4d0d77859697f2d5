import Clocks
import StatecraftTesting
import Testing

@testable import Statecraft

extension Engine {
  /// A test store's waits end as soon as their condition holds: each registers its wake-up
  /// before it checks, so a change made in between is never missed. The timeouts here are far
  /// longer than the time limit: a wait that ran out its timeout fails the test.
  @MainActor
  @Suite struct WaitTests {
    struct Feature: Reducer {
      struct State: Equatable, Sendable { var count = 0 }
      enum Action: Equatable, Sendable { case start, quick, tick }
      let clock: TestClock<Duration>
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .start:
          return .run { [clock] send in
            await send(.tick)
            try await clock.sleep(for: .seconds(1))
            await send(.tick)
          }
        case .quick:
          return .run { _ in }
        case .tick:
          state.count += 1
          return .none
        }
      }
    }

    @Test(.timeLimit(.minutes(1)))
    func receiveReturnsOnceTheActionArrivedThoughTheEffectKeepsRunning() async {
      let clock = TestClock()
      let store = TestStore(initialState: Feature.State()) { Feature(clock: clock) }
      store.timeout = .seconds(600)
      await store.send(.start)
      await store.receive(.tick) { $0.count = 1 }
      await clock.advance(by: .seconds(1))
      await store.receive(.tick) { $0.count = 2 }
      await store.finish()
    }

    @Test(.timeLimit(.minutes(1)))
    func finishReturnsOnceTheEffectsEnded() async {
      let store = TestStore(initialState: Feature.State()) { Feature(clock: TestClock()) }
      store.timeout = .seconds(600)
      await store.send(.quick)
      await store.finish()
    }

    @Test(.timeLimit(.minutes(1)))
    func aTaskFinishesWithinItsTimeoutOnceItsEffectsEnded() async {
      let clock = TestClock()
      let store = TestStore(initialState: Feature.State()) { Feature(clock: clock) }
      let task = await store.send(.start)
      await store.receive(.tick) { $0.count = 1 }
      await clock.advance(by: .seconds(1))
      await task.finish(timeout: .seconds(600))
      await store.receive(.tick) { $0.count = 2 }
      await store.finish()
    }
  }
}
