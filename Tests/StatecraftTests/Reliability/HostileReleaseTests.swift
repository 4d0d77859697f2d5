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
      #expect(store.core.runtime.effects.activeEffectCount == 0)
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
      #expect(store.core.runtime.effects.activeEffectCount == 0)
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
      #expect(store.core.runtime.effects.activeEffectCount == 0)
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
    @Test func aThousandEventsBeforeTheLoopRunsAreShownToTheFeedbacksInOrder() async {
      let seen = LockIsolated<[Int]>([])
      let store = Store(
        initialState: FeedbackBeforeRunTests.Recorder.State(),
        system: FeedbackBeforeRunTests.Recorder(seen: seen))
      let tasks = (0..<1_000).map { _ in store.send(.increment) }
      #expect(store.count == 1_000)
      #expect(seen.value == [])
      let loop = Task { await store.run() }
      for task in tasks { await task.finish() }
      #expect(seen.value == Array(0...1_000))
      loop.cancel()
      await loop.value
    }

    @Test func eventsSentWhileTheLoopIsStoppedAreShownInOrderWhenItRestarts() async {
      let seen = LockIsolated<[Int]>([])
      let store = Store(
        initialState: FeedbackBeforeRunTests.Recorder.State(),
        system: FeedbackBeforeRunTests.Recorder(seen: seen))
      var loop = Task { await store.run() }
      await store.send(.increment).finish()
      loop.cancel()
      await loop.value
      #expect(seen.value == [0, 1])
      let tasks = (0..<3).map { _ in store.send(.increment) }
      loop = Task { await store.run() }
      for task in tasks { await task.finish() }
      // The restarted feedbacks start from the state the loop stopped at.
      #expect(seen.value == [0, 1, 1, 2, 3, 4])
      loop.cancel()
      await loop.value
    }

    @Test func aStoreTaskOfARowsHotSubscriptionFinishesWhenTheRowIsRemoved() async {
      let subject = PassthroughSubject<Int, Never>()
      let publisher = UncheckedSendable(subject.eraseToAnyPublisher())
      struct Row: Equatable, Identifiable, Sendable {
        let id: Int
        var heard: [Int] = []
      }
      let store = Store(initialState: [Row(id: 1)] as IdentifiedArrayOf<Row>) {
        Reduce<IdentifiedArrayOf<Row>, IdentifiedAction<Int, Int>> { state, action in
          if case .element(let id, -1) = action { state.remove(id: id) }
          return .none
        }
        .forEach(\.self, action: casePath({ $0 }, { $0 })) {
          Reduce<Row, Int> { state, value in
            if value == 0 { return .publisher(publisher.value) }
            if value > 0 { state.heard.append(value) }
            return .none
          }
        }
      }
      let task = store.send(.element(id: 1, action: 0))
      subject.send(1)
      #expect(store.state == [Row(id: 1, heard: [1])])
      store.send(.element(id: 1, action: -1))
      await task.finish()
      subject.send(2)
      #expect(store.state == [])
      #expect(store.runningEffectCount == 0)
    }
  }
}
