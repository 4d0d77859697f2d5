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

/// A state whose first field is a struct: `\.inner` and `\.inner.x` both start at offset 0.
private struct Nested: Reducer {
  struct Inner: Equatable {
    var x = 0
    var y = 0
  }

  struct State: Equatable {
    var inner = Inner()
    var count = 0
    var total: Int { inner.x + inner.y + count }
  }

  enum Action {
    case setX(Int)
    case setY(Int)
    case setCount(Int)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .setX(let x): state.inner.x = x
    case .setY(let y): state.inner.y = y
    case .setCount(let count): state.count = count
    }
    return .none
  }
}

extension Engine {
  /// What a read of a store costs rests on two caches: what a call site observes, found by the
  /// key path object's identity, and the state a scoped store last read through to its root.
  /// Neither may change what a reader sees or who is notified.
  @MainActor
  @Suite struct ReadPathTests {
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
      #expect(store.observation.readSites.count <= 64)
      #expect(store.observation.observedValues.count == 1)
      store.send(.add(1))
      #expect(notified.value == 1)
    }

    /// A read site of a stored property is named by its offset and its value's type, so that a
    /// literal's read needs no key path object: two key paths that start at the same offset
    /// must still be observed apart, in either order of their first reads.
    @Test func keyPathsThatStartAtTheSameOffsetAreObservedApart() {
      let store = Store(initialState: Nested.State()) { Nested() }
      for round in 1...2 {
        let x = track { _ = store[\.inner.x] }
        let inner = track { _ = store.inner }
        let count = track { _ = store.count }
        let total = track { _ = store.total }
        store.send(.setY(round))
        #expect(inner.value == 1)
        #expect(x.value == 0)
        #expect(count.value == 0)
        #expect(total.value == 1)
        let innerAgain = track { _ = store.inner }
        let xAgain = track { _ = store[\.inner.x] }
        store.send(.setX(round))
        #expect(innerAgain.value == 1)
        #expect(xAgain.value == 1)
        #expect(x.value == 1)
        #expect(store[\.inner.x] == round)
        #expect(store.inner == Nested.Inner(x: round, y: round))
      }
      let sites = store.observation.readSites.count
      _ = store.inner
      _ = store[\.inner.x]
      #expect(store.observation.readSites.count == sites)
    }

    @Test func computedKeyPathsMadeAtEachReadAreObservedAndKeptFew() {
      let store = Store(initialState: Nested.State()) { Nested() }
      let notified = track {
        for _ in 0..<100 {
          _ = store[dynamicMember: (\Nested.State.self).appending(path: \.total)]
        }
      }
      #expect(store.observation.readSites.count <= 64)
      #expect(store.observation.observedValues.count == 1)
      store.send(.setCount(1))
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
