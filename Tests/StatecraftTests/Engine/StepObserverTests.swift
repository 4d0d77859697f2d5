import Clocks
import Testing

@testable import Statecraft

// NB: in the serialized `Engine` suite, on the main serial executor: alone, this suite ran in
// parallel with it, and a test there that switched the executor off left this one's effect short
// of its clock's sleep when the clock advanced (a hang, 1 run in 8).
extension Engine {
  /// The hook that debugging tools use: every action the root reduces, with its origin and the
  /// state it left, in the order the root reduced them.
  @MainActor
  @Suite struct StepObserverTests {
    @Test func everyReducedActionIsSeenWithItsOriginAndTheStateAfterIt() async {
      let clock = TestClock()
      let store = Store(initialState: Pinger.State(id: 7)) { Pinger(clock: clock) }
      var steps: [(Pinger.Action, ActionOrigin, Pinger.State)] = []
      let id = store.core.runtime.stepObservers.add { step in
        steps.append((step.action as! Pinger.Action, step.origin, step.state as! Pinger.State))
      }
      store.send(.ping)
      let task = store.send(.load)
      await clock.advance(by: .seconds(1))
      await task.finish()
      #expect(steps.map(\.0) == [.ping, .pong, .load, .loaded(7)])
      #expect(steps.map(\.1) == [.send, .effect, .send, .effect])
      #expect(steps.map(\.2.pongs) == [0, 1, 1, 1])
      #expect(steps.map(\.2.loaded) == [nil, nil, nil, 7])

      store.core.runtime.stepObservers.remove(id)
      store.send(.ping)
      #expect(steps.count == 4)
    }

    @Test func anActionSentWhileTheStoreIsBusyKeepsItsOrigin() {
      let store = Store(initialState: Pinger.State(id: 1)) { Pinger(clock: TestClock()) }
      var origins: [ActionOrigin] = []
      _ = store.core.runtime.stepObservers.add { step in origins.append(step.origin) }
      // NB: an observer's send arrives while the store publishes: it is queued, and is still a
      // send from outside.
      var sentFromObserver = false
      let observation = store.observe { store in
        if store.pongs == 1 && !sentFromObserver {
          sentFromObserver = true
          store.send(.pong)
        }
      }
      store.send(.ping)
      _ = observation
      #expect(origins == [.send, .effect, .send])
    }
  }
}
