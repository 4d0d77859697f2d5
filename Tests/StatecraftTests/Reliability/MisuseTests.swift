import Clocks
import ConcurrencyExtras
import Testing

@testable import Statecraft

/// The misuse catalogue: each misuse the engine detects is reported exactly once, with a message
/// that says what happened and how to fix it, and never crashes.
extension Engine {
  @MainActor
  @Suite struct MisuseTests {
    @Test func anUnhandledEffectError() async {
      struct Failure: Error {}
      let store = Store(initialState: 0) {
        Reduce<Int, Int> { _, _ in .run { _ in throw Failure() } }
      }
      await expectOneFailure(containing: ["threw an error that nothing handled", "catch"]) {
        await store.send(1).finish()
      }
    }

    @Test func aSendFromAFinishedEffect() async {
      let escaped = LockIsolated<Send<Int>?>(nil)
      let store = Store(initialState: 0) {
        Reduce<Int, Int> { _, action in
          action == 0 ? .run { send in escaped.setValue(send) } : .none
        }
      }
      await store.send(0).finish()
      await expectOneFailure(containing: ["after its operation had returned", "escaping 'send'"]) {
        escaped.value?(1)
      }
    }

    @Test func aSendToAReleasedStore() async {
      let escaped = LockIsolated<Send<Int>?>(nil)
      let started = Gate()
      var store: Store<Int, Int>? = Store(initialState: 0) {
        Reduce<Int, Int> { _, _ in
          .run { send in
            escaped.setValue(send)
            started.open()
            try await Task.never()
          }
        }
      }
      let task = store?.send(0)
      await started.wait()
      store = nil
      await task?.finish()
      await expectOneFailure(containing: ["has been released", "Task.isCancelled"]) {
        escaped.value?(1)
      }
    }

    @Test func aChildActionForNilIfLetState() async {
      let store = Store(initialState: List.State()) { List(clock: TestClock()) }
      await expectOneFailure(containing: ["child state was nil", "toggle", "Cancel the child"]) {
        store.send(.detail(.toggle))
      }
    }

    @Test func anElementActionForAMissingForEachID() async {
      let store = Store(initialState: List.State()) { List(clock: TestClock()) }
      await expectOneFailure(containing: ["not in the collection", "id: 42", "check the id"]) {
        store.send(.rows(.element(id: 42, action: .toggle)))
      }
    }

    @Test func routesFromAStoreWithoutAReactor() async {
      let store = Store(initialState: Counter.State()) { Counter() }
      await expectOneFailure(containing: ["does not run a reactor", "Store(initialState:reactor:)"])
      {
        _ = store.routes(Int.self)
      }
    }

    @Test func runOnAStoreWithoutAFeedbackSystem() async {
      let store = Store(initialState: Counter.State()) { Counter() }
      await expectOneFailure(containing: ["does not run a feedback system"]) {
        await store.run()
      }
    }

    struct UnrunSystem: FeedbackSystem {
      enum Event: Sendable { case increment }
      func reduce(into state: inout Int, event: Event) { state += 1 }
      var feedbacks: [Feedback<Int, Event>] { [] }
    }

    @Test func aFeedbackStoreReleasedWithEventsItsLoopNeverSaw() async {
      await expectOneFailure(containing: ["2 event(s) that its feedbacks never saw", "run()"]) {
        var store: FeedbackStoreOf<UnrunSystem>? = Store(initialState: 0, system: UnrunSystem())
        store?.send(.increment)
        store?.send(.increment)
        store = nil
      }
    }
  }
}
