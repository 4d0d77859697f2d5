import Clocks
// NB: with Foundation imported, the compiler no longer opens an `any Clock<Duration>` for a
// generic clock parameter; these tests compile only because the operators take one as it is.
import Foundation
import Statecraft
import StatecraftTesting
import Testing

extension Engine {
  @MainActor @Suite struct ClockDependencyTests {
    struct Search: Reducer {
      struct State: Equatable { var applied: [String] = [] }
      enum Action: Equatable, Sendable { case typed(String), throttled(String), apply(String) }
      enum CancelID { case debounce, throttle }
      let clock: any Clock<Duration>

      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .typed(let text):
          return Effect.send(.apply(text))
            .debounce(id: CancelID.debounce, for: .milliseconds(300), clock: clock)
        case .throttled(let text):
          return Effect.send(.apply(text))
            .throttle(id: CancelID.throttle, for: .seconds(1), clock: clock, latest: true)
        case .apply(let text):
          state.applied.append(text)
          return .none
        }
      }
    }

    @Test func debounceAndThrottleTakeAClockHeldAsAnExistential() async {
      let clock = TestClock()
      let store = TestStore(initialState: Search.State()) { Search(clock: clock) }
      await store.send(.typed("s"))
      await store.send(.typed("sw"))
      await clock.advance(by: .milliseconds(300))
      await store.receive(.apply("sw")) { $0.applied = ["sw"] }
      await store.send(.throttled("a"))
      await store.receive(.apply("a")) { $0.applied.append("a") }
      await store.send(.throttled("b"))
      await store.send(.throttled("c"))
      await clock.advance(by: .seconds(1))
      await store.receive(.apply("c")) { $0.applied.append("c") }
      await clock.run()  // NB: the throttle's window stays open for an interval after "c".
      await store.finish()
    }
  }
}
