import Clocks
import ConcurrencyExtras
import IdentifiedCollections
import IssueReporting
import StatecraftCombine
import Testing

@testable import Statecraft

extension Engine {
  /// Stores released mid-effect, and feedback loops stopped and restarted.
  @MainActor
  @Suite struct HostileReleaseTests {
    @Test func aStoreReleasedWhileAPublisherIsMidEmissionCancelsItAndReportsNothing() async {
      let recorder = IssueRecorder()
      await withIssueReporters(IssueReporters.current + [recorder]) {
        let subject = PassthroughSubject<Int, Never>()
        let cancelled = LockIsolated(false)
        let publisher = UncheckedSendable(
          subject.handleEvents(receiveCancel: { cancelled.setValue(true) }).eraseToAnyPublisher())
        var store: Store<[Int], Int>? = Store(initialState: []) {
          Reduce<[Int], Int> { state, value in
            if value == 0 { return .publisher(publisher.value) }
            state.append(value)
            return .none
          }
        }
        weak let weakStore = store
        let task = store!.send(0)
        subject.send(1)
        subject.send(2)
        #expect(store?.state == [1, 2])
        store = nil
        #expect(weakStore == nil)
        #expect(cancelled.value)
        subject.send(3)
        await task.finish()
        #expect(task.hasFinished)
      }
      #expect(recorder.messages.value == [])
    }

    @Test func aStoreReleasedWhileARowEffectWaitsEndsItWithoutAReport() async {
      let recorder = IssueRecorder()
      await withIssueReporters(IssueReporters.current + [recorder]) {
        let clock = TestClock()
        var store: StoreOf<Household>? = Store(
          initialState: Household.State(rows: [Kid.State(id: 1)])
        ) {
          Household(clock: clock)
        }
        weak let weakStore = store
        let timer = store!.send(.rows(.element(id: 1, action: .startTimer)))
        let search = store!.send(.rows(.element(id: 1, action: .search)))
        store = nil
        #expect(weakStore == nil)
        await clock.run()
        await timer.finish()
        await search.finish()
      }
      #expect(recorder.messages.value == [])
    }

    struct Counter: FeedbackSystem {
      struct State: Equatable, Sendable {
        var count = 0
        var seen: [Int] = []
      }
      enum Event: Equatable, Sendable {
        case increment
        case seen(Int)
      }
      let gate: Gate?

      func reduce(into state: inout State, event: Event) {
        switch event {
        case .increment: state.count += 1
        case .seen(let count): state.seen.append(count)
        }
      }

      var feedbacks: [Feedback<State, Event>] {
        [
          Feedback(.onChanged(\.count)) { [gate] state, send in
            if let gate, state.count == 1 { await gate.wait() }
            await send(.seen(state.count))
          }
        ]
      }
    }

    @Test func aFeedbackLoopCancelledAndRestartedShowsTheFeedbacksWhatChangedWhileStopped()
      async
    {
      let store = Store(initialState: Counter.State(), system: Counter(gate: nil))
      var loop = Task { await store.run() }
      await store.send(.increment).finish()
      #expect(store.seen.last == 1)
      loop.cancel()
      await loop.value
      #expect(store.core.runtime.activeEffectCount == 0)
      let whileStopped = store.send(.increment)
      #expect(store.count == 2)
      #expect(!whileStopped.hasFinished)
      #expect(store.seen.last == 1)
      loop = Task { await store.run() }
      await whileStopped.finish()
      #expect(store.seen.last == 2)
      await store.send(.increment).finish()
      #expect(store.seen.last == 3)
      loop.cancel()
      await loop.value
      #expect(store.core.runtime.activeEffectCount == 0)
    }

    @Test func aFeedbackRunInFlightWhenTheLoopStopsNeverSendsItsEvent() async {
      let gate = Gate()
      let store = Store(initialState: Counter.State(), system: Counter(gate: gate))
      let loop = Task { await store.run() }
      await store.wait(while: { $0.seen.isEmpty })  // the loop runs
      let task = store.send(.increment)
      loop.cancel()
      await loop.value
      gate.open()
      await task.finish()
      #expect(store.seen == [0])
      #expect(store.core.runtime.activeEffectCount == 0)
    }

    @Test func aSecondRunKeepsTheLoopGoingWhenTheFirstIsCancelled() async {
      let store = Store(initialState: Counter.State(), system: Counter(gate: nil))
      let first = Task { await store.run() }
      let second = Task { await store.run() }
      await store.send(.increment).finish()
      first.cancel()
      await first.value
      await store.send(.increment).finish()
      #expect(store.seen.last == 2)
      second.cancel()
      await second.value
      let stopped = store.send(.increment)
      #expect(!stopped.hasFinished)
      #expect(store.seen.last == 2)
    }
  }
}
