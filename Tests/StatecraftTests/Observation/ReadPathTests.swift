import ConcurrencyExtras
import Observation
import Testing

@testable import Statecraft

/// Reads `store.count` from one call site, whoever calls it: a view, an `observe` closure.
@MainActor
private func readCount(_ store: StoreOf<Tally>) -> Int {
  store.count
}

/// A tally whose notes have room to grow in place.
private func roomyTally() -> Tally.State {
  var state = Tally.State()
  state.notes.reserveCapacity(64)
  return state
}

extension Engine {
  /// What a read of a store costs rests on two caches: what a call site observes, found by the
  /// key path object's identity, and the state a scoped store last read through to its root.
  /// Neither may change what a reader sees or who is notified.
  @MainActor
  @Suite struct ReadPathTests {
    /// Reads `read` under `withObservationTracking` and returns a count of its notifications.
    func track(_ read: @escaping () -> Void) -> LockIsolated<Int> {
      let notified = LockIsolated(0)
      withObservationTracking {
        read()
      } onChange: {
        notified.withValue { $0 += 1 }
      }
      return notified
    }

    @Test func aCallSiteReadAgainAfterAChangeIsObservedAgain() {
      let store = Store(initialState: Tally.State()) { Tally() }
      let first = track { _ = readCount(store) }
      store.send(.add(1))
      #expect(first.value == 1)
      let second = track { _ = readCount(store) }
      store.send(.note("unrelated"))
      #expect(second.value == 0)
      store.send(.add(1))
      #expect(second.value == 1)
      #expect(first.value == 1)
    }

    @Test func anObserveClosureReadingAFieldAViewReadsFromTheSameCallSiteReRuns() {
      let store = Store(initialState: Tally.State()) { Tally() }
      let view = track { _ = readCount(store) }
      var seen: [Int] = []
      let token = store.observe { store in seen.append(readCount(store)) }
      store.send(.add(2))
      #expect(view.value == 1)
      #expect(seen == [0, 2])
      token.cancel()
    }

    @Test func keyPathsMadeAtEachReadAreObservedAndKeptFew() {
      let store = Store(initialState: Tally.State()) { Tally() }
      let notified = track {
        for _ in 0..<100 {
          _ = store[dynamicMember: (\Tally.State.self).appending(path: \.count)]
        }
      }
      #expect(store.readSites.count <= 64)
      #expect(store.observedValues.count == 1)
      store.send(.add(1))
      #expect(notified.value == 1)
    }

    @Test func aScopedStoreReadAgainAfterASendShowsTheNewState() {
      let store = Store(initialState: Tally.State()) { Tally() }
      let notes = store.scope(state: \.notes, action: { (action: Tally.Action) in action })
      #expect(notes.count == 0)
      store.send(.note("a"))
      #expect(notes.count == 1)
      notes.send(.note("b"))
      #expect(notes.state == ["a", "b"])
    }

    @Test func aScopedStoreReadAfterAJumpShowsTheStateJumpedTo() {
      let recorder = Recorder<Tally.State, Tally.Action>(
        initialState: Tally.State(), storingStateEvery: 1)
      let recordingStore = Store(initialState: recorder.initialState) {
        Tally().recording(into: recorder)
      }
      recordingStore.send(.note("a"))
      recordingStore.send(.note("b"))
      let store = Store(initialState: Tally.State()) { Tally() }
      let notes = store.scope(state: \.notes, action: { (action: Tally.Action) in action })
      #expect(notes.count == 0)
      #expect(store.jump(toStep: 2, in: recorder.recording, reducer: Tally()))
      #expect(notes.count == 2)
      #expect(store.jump(toStep: 1, in: recorder.recording, reducer: Tally()))
      #expect(notes.state == ["a"])
    }

    @Test func aScopedStoreReadByAnObserverWhileTheRootPublishesShowsLaterSends() {
      let store = Store(initialState: Tally.State()) { Tally() }
      let notes = store.scope(state: \.notes, action: { (action: Tally.Action) in action })
      var seen: [Int] = []
      let token = store.observe { _ in seen.append(notes.count) }
      store.send(.note("a"))
      store.send(.note("b"))
      #expect(seen == [0, 1, 2])
      #expect(notes.count == 2)
      token.cancel()
    }

    @Test func readingAScopedStoreLeavesTheNextWriteOfItsStateInPlace() {
      let store = Store(initialState: roomyTally()) { Tally() }
      let notes = store.scope(state: \.notes, action: { (action: Tally.Action) in action })
      func storage() -> UnsafeRawPointer? {
        store.withState { $0.notes.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } }
      }
      store.send(.note("a"))
      let before = storage()
      #expect(notes.count == 1)
      store.send(.note("b"))
      #expect(notes.count == 2)
      store.send(.note("c"))
      #expect(storage() == before)
    }
  }
}
