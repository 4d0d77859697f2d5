import ConcurrencyExtras
import Testing

@testable import Statecraft

extension Engine {
  /// Events sent to a feedback system's store before `run()` starts its loop.
  @MainActor
  @Suite struct FeedbackBeforeRunTests {
    struct Counter: FeedbackSystem {
      struct State: Equatable, Sendable {
        var count = 1
        var seen: [Int] = []
      }
      enum Event: Sendable, BindableAction {
        case increment
        case seen(Int)
        case binding(BindingAction<State>)
      }

      func reduce(into state: inout State, event: Event) {
        switch event {
        case .increment: state.count += 1
        case .seen(let count): state.seen.append(count)
        case .binding(let binding): binding.apply(to: &state)
        }
      }

      var feedbacks: [Feedback<State, Event>] {
        [Feedback(.onChanged(\.count)) { state, send in await send(.seen(state.count)) }]
      }
    }

    @Test func bindingWritesBeforeTheLoopRunsReadWhatTheyWrote() async {
      let store = Store(initialState: Counter.State(), system: Counter())
      let count = store.binding(\.count)
      count.wrappedValue += 1
      count.wrappedValue += 1
      #expect(store.count == 3)
      let loop = Task { await store.run() }
      await store.wait(while: { $0.seen.last != $0.count })
      #expect(store.seen.last == 3)
      loop.cancel()
      await loop.value
    }

    @Test func finishBeforeTheLoopStartsWaitsForTheEventAndItsWork() async {
      let store = Store(initialState: Counter.State(), system: Counter())
      let task = store.send(.increment)
      #expect(store.count == 2)
      #expect(!task.hasFinished)
      let finished = Task { await task.finish() }
      let loop = Task { await store.run() }
      await finished.value
      // The feedback saw the state the event made, and its work is done.
      #expect(store.seen.last == 2)
      loop.cancel()
      await loop.value
    }

    @Test func theFeedbacksSeeTheInitialStateThenEachBufferedStateInOrder() async {
      let seen = LockIsolated<[Int]>([])
      let store = Store(
        initialState: Recorder.State(), system: Recorder(seen: seen))
      let first = store.send(.increment)
      let second = store.send(.increment)
      let loop = Task { await store.run() }
      await first.finish()
      await second.finish()
      #expect(seen.value == [0, 1, 2])
      loop.cancel()
      await loop.value
    }

    /// Records every state its feedback is shown, synchronously.
    struct Recorder: FeedbackSystem {
      struct State: Equatable, Sendable { var count = 0 }
      enum Event: Sendable { case increment }
      let seen: LockIsolated<[Int]>

      func reduce(into state: inout State, event: Event) {
        state.count += 1
      }

      var feedbacks: [Feedback<State, Event>] {
        [
          Feedback(
            makeEvaluator: { [seen] in
              { state, _ in
                seen.withValue { $0.append(state.count) }
                return .idle
              }
            })
        ]
      }
    }

    @Test func releasingAStoreWhoseLoopNeverRanWithUnseenEventsIsReported() async {
      await expectOneFailure(containing: ["never saw", "await store.run()"]) {
        var store: FeedbackStoreOf<Counter>? = Store(
          initialState: Counter.State(), system: Counter())
        store?.send(.increment)
        store = nil
      }
    }

    @Test func releasingAStoreWhoseLoopRanIsNotReported() async {
      var store: FeedbackStoreOf<Counter>? = Store(
        initialState: Counter.State(), system: Counter())
      store?.send(.increment)
      let loop = Task { [store] in await store?.run() }
      await store?.wait(while: { $0.seen.isEmpty })
      loop.cancel()
      await loop.value
      store = nil
    }
  }
}
