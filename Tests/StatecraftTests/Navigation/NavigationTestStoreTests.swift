import Clocks
import StatecraftTesting
import Testing

@testable import Statecraft

extension Engine {
  /// The test store sends and receives presentation, stack and alert actions by case path and by
  /// id, and is exhaustive over them.
  @MainActor
  @Suite struct NavigationTestStoreTests {
    @Test func sendsAndReceivesStackElementActionsByCasePathAndID() async {
      let clock = TestClock()
      let store = TestStore(initialState: Drill.State()) { Drill(clock: clock) }
      await store.send(\.push) { $0.path.append(Ticker.State()) }
      let id = store.state.path.ids[0]
      await store.send(\.path[id: id].edit, "Notes") { $0.path[id: id]?.draft = "Notes" }
      await store.send(.path(.element(id: id, action: .startTimer)))
      await clock.advance(by: .seconds(1))
      await store.receive(\.path[id: id].tick) { $0.path[id: id]?.ticks = 1 }
      await store.send(\.path.popFrom, id) { $0.path = [] }
      await store.finish()
    }

    @Test func sendsAndReceivesPresentationActionsByCasePath() async {
      let clock = TestClock()
      let store = TestStore(initialState: Presenter.State()) { Presenter(clock: clock) }
      await store.send(.showDestination(.first(Ticker.State()))) {
        $0.destination = .first(Ticker.State())
      }
      await store.send(\.destination.presented.first.edit, "Draft") {
        $0.destination = .first(Ticker.State(draft: "Draft"))
      }
      await store.send(\.destination.presented.first.closeTapped)
      await store.receive(\.destination.dismiss) { $0.destination = nil }
    }

    @Test func anUnassertedPushFails() async {
      let store = TestStore(initialState: Drill.State()) { Drill(clock: TestClock()) }
      await withKnownIssue {
        await store.send(.push)
      } matching: {
        $0.description.contains("The state changed after")
          && $0.description.contains("but the test asserted no change")
          && $0.description.contains("+   path: [")
      }
    }

    @Test func anUnassertedPopFails() async {
      let store = TestStore(initialState: Drill.State()) { Drill(clock: TestClock()) }
      await store.send(.push) { $0.path.append(Ticker.State()) }
      await withKnownIssue {
        await store.send(.path(.popFrom(id: store.state.path.ids[0])))
      } matching: {
        $0.description.contains("The state changed after")
          && $0.description.contains("but the test asserted no change")
          && $0.description.contains("+ Drill.State(path: [])")
      }
    }

    @Test func anUnreceivedDismissalFails() async {
      let store = TestStore(initialState: Presenter.State()) { Presenter(clock: TestClock()) }
      await store.send(.showSheet) { $0.sheet = Ticker.State() }
      await store.send(.sheet(.presented(.closeTapped)))
      await withKnownIssue {
        await store.finish()
      } matching: {
        $0.description.contains("dismiss")
      }
    }
  }
}
