import ConcurrencyExtras
import Observation
import Testing

@testable import Statecraft

extension Engine {
  @MainActor
  @Suite struct TimeTravelTests {
    /// A recording of five `add(1)`s and a note, storing every `interval`th state.
    func recording(storingStateEvery interval: Int) -> Recording<Tally.State, Tally.Action> {
      let recorder = Recorder<Tally.State, Tally.Action>(
        initialState: Tally.State(), storingStateEvery: interval)
      let store = Store(initialState: recorder.initialState) { Tally().recording(into: recorder) }
      for _ in 1...5 { store.send(.add(1)) }
      store.send(.note("done"))
      return recorder.recording
    }

    @Test func jumpsToAStoredStepAndNotifiesObservers() {
      let recording = recording(storingStateEvery: 1)
      let store = Store(initialState: Tally.State()) { Tally() }
      var seen: [Int] = []
      let token = store.observe { store in seen.append(store.count) }
      #expect(store.jump(toStep: 3, in: recording, reducer: Tally()))
      #expect(store.state == Tally.State(count: 3))
      #expect(store.jump(toStep: 6, in: recording, reducer: Tally()))
      #expect(store.state == Tally.State(count: 5, notes: ["done"]))
      #expect(store.jump(toStep: 0, in: recording, reducer: Tally()))
      #expect(seen == [0, 3, 5, 0])
      token.cancel()
    }

    @Test func aJumpNotifiesOnlyTheObserversOfWhatChanged() {
      let recording = recording(storingStateEvery: 1)
      let store = Store(initialState: Tally.State()) { Tally() }
      store.jump(toStep: 5, in: recording, reducer: Tally())
      let countChanged = LockIsolated(false)
      let notesChanged = LockIsolated(false)
      withObservationTracking {
        _ = store.count
      } onChange: {
        countChanged.setValue(true)
      }
      withObservationTracking {
        _ = store.notes
      } onChange: {
        notesChanged.setValue(true)
      }
      store.jump(toStep: 6, in: recording, reducer: Tally())  // adds a note, count unchanged
      #expect(!countChanged.value)
      #expect(notesChanged.value)
    }

    @Test func jumpsToAnUnstoredStepByReplayingFromTheNearestStoredState() {
      let recording = recording(storingStateEvery: 4)
      #expect(recording.checkpoints.map(\.step) == [4])
      // Counts how often the reducer runs: the jump replays steps 5 and 6 only.
      var reduced = 0
      let counting = Reduce<Tally.State, Tally.Action> { state, action in
        reduced += 1
        return Tally().reduce(into: &state, action: action)
      }
      let store = Store(initialState: Tally.State()) { Tally() }
      #expect(store.jump(toStep: 6, in: recording, reducer: counting))
      #expect(store.state == Tally.State(count: 5, notes: ["done"]))
      #expect(reduced == 2)
      #expect(store.jump(toStep: 2, in: recording, reducer: counting))
      #expect(store.count == 2)
      #expect(reduced == 4)
    }

    @Test func aStoreKeepsWorkingAfterAJump() async {
      let recording = recording(storingStateEvery: 1)
      let store = Store(initialState: Tally.State()) { Tally() }
      store.jump(toStep: 2, in: recording, reducer: Tally())
      store.send(.add(10))
      #expect(store.count == 12)
      await store.send(.fetch).finish()
      #expect(store.state == Tally.State(count: 100, notes: ["fetched"]))
    }

    @Test func aJumpMadeWhileTheStoreReducesAppliesWhenTheBatchEnds() {
      let recording = recording(storingStateEvery: 1)
      // NB: weak, or the store would hold its reducer's sink, which holds the store.
      weak var weakStore: Store<Tally.State, Tally.Action>?
      // A change-log sink runs inside `send`; jumping from it must not touch the state that the
      // reducer is mutating.
      let store = Store(initialState: Tally.State()) {
        Tally().logChanges(
          to: ChangeLogSink { _ in weakStore?.jump(toStep: 1, in: recording, reducer: Tally()) })
      }
      weakStore = store
      var seen: [Int] = []
      let token = store.observe { store in seen.append(store.count) }
      store.send(.add(7))
      #expect(store.state == Tally.State(count: 1))
      #expect(seen == [0, 1])
      token.cancel()
    }

    @Test func stateAtAStepTheRecordingDoesNotHaveIsNil() {
      let recording = recording(storingStateEvery: 2)
      #expect(recording.state(at: -1, reducer: Tally()) == nil)
      #expect(recording.state(at: 7, reducer: Tally()) == nil)
      #expect(recording.state(at: 5, reducer: Tally()) == Tally.State(count: 5))
      #expect(recording.storedState(at: 5) == nil)
      #expect(recording.storedState(at: 4) == Tally.State(count: 4))
    }
  }
}
