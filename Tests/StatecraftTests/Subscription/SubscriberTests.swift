import Testing

@testable import Statecraft

extension Engine {
  @MainActor
  @Suite struct SubscriberTests {
    final class Recorder: StateSubscriber {
      var counts: [Int] = []
      var onState: ((Counter.State) -> Void)?
      func state(_ state: Counter.State) {
        MainActor.assertIsolated()
        counts.append(state.count)
        onState?(state)
      }
    }

    @Test func aSubscriberGetsTheInitialStateThenEveryPublishedStateInOrder() async {
      let store = Store(initialState: Counter.State()) { Counter() }
      let recorder = Recorder()
      store.subscribe(recorder)
      store.send(.increment)
      store.send(.incrementThrice)
      await withTaskGroup(of: Void.self) { group in
        for _ in 1...10 { group.addTask { await store.send(.increment) } }
      }
      // One state per batch: `incrementThrice` is one batch of four actions.
      #expect(recorder.counts == [0, 1, 4] + Array(5...14))
    }

    @Test func theStoreHoldsTheSubscriberWeakly() {
      let store = Store(initialState: Counter.State()) { Counter() }
      var recorder: Recorder? = Recorder()
      weak let weakRecorder = recorder
      store.subscribe(recorder!)
      recorder = nil
      #expect(weakRecorder == nil)
      store.send(.increment)
    }

    @Test func aCancelledSubscriptionDeliversNothingMore() {
      let store = Store(initialState: Counter.State()) { Counter() }
      let recorder = Recorder()
      let subscription = store.subscribe(recorder)
      store.send(.increment)
      subscription.cancel()
      store.send(.increment)
      #expect(recorder.counts == [0, 1])
      #expect(subscription.isCancelled)
    }

    @Test func actionsSentFromTheCallbackAreReducedAfterIt() {
      let store = Store(initialState: Counter.State()) { Counter() }
      let recorder = Recorder()
      recorder.onState = { state in
        if state.count == 1 && state.text.isEmpty { store.send(.setText("one")) }
      }
      store.subscribe(recorder)
      store.send(.increment)
      #expect(store.text == "one")
      #expect(recorder.counts == [0, 1, 1])
    }
  }
}
