import Clocks
import StatecraftTesting
import Testing

@testable import Statecraft

extension Engine {
  /// A store that is not exhaustive lets the actions its effects have due apply before it sends,
  /// skips or asserts: no manual yield in the test.
  @MainActor
  @Suite struct NonExhaustiveTests {
    struct Feature: Reducer {
      struct State: Equatable, Sendable { var count = 0 }
      enum Action: Equatable, Sendable { case increment, response(Int), startTimer, tick }
      let clock: TestClock<Duration>
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .increment:
          state.count += 1
          return .run { send in await send(.response(42)) }
        case .response(let value):
          state.count += value
          return .none
        case .startTimer:
          return .run { [clock] send in
            for await _ in clock.timer(interval: .seconds(1)) { await send(.tick) }
          }
        case .tick:
          state.count += 1
          return .none
        }
      }
    }

    @Test func sendSeesTheActionThatIsDue() async {
      let store = TestStore(initialState: Feature.State()) { Feature(clock: TestClock()) }
      store.exhaustivity = .off
      await store.send(.increment) { $0.count = 1 }
      #expect(store.state.count == 1)
      await store.send(.increment) { $0.count = 44 }
      #expect(store.state.count == 44)
      await store.skipReceivedActions()
      #expect(store.state.count == 86)
      await store.finish()
    }

    @Test func skipReceivedActionsSeesTheActionThatIsDue() async {
      let store = TestStore(initialState: Feature.State()) { Feature(clock: TestClock()) }
      await store.send(.increment) { $0.count = 1 }
      await store.skipReceivedActions()
      #expect(store.state.count == 43)
      await store.finish()
    }

    @Test func assertSeesTheActionThatIsDue() async {
      let clock = TestClock()
      let store = TestStore(initialState: Feature.State()) { Feature(clock: clock) }
      store.exhaustivity = .off
      await store.send(.startTimer)
      await clock.advance(by: .seconds(2))
      store.assert { $0.count = 2 }
      await store.skipInFlightEffects()
      await store.finish()
    }
  }
}
