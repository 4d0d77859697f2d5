import Clocks
import ConcurrencyExtras
import IdentifiedCollections
import Observation
import Testing

@testable import Statecraft

/// A list whose parent removes a row in the same action in which the row starts an effect.
struct Loaders: Reducer {
  struct State: Equatable, Sendable {
    var rows: IdentifiedArrayOf<Row.State> = [Row.State(id: 1), Row.State(id: 2)]
  }

  enum Action: Equatable, Sendable {
    case rows(IdentifiedActionOf<Row>)
    case loadAndRemove(Int)

    static let rowsCase = casePath(Action.rows) {
      if case .rows(let action) = $0 { action } else { nil }
    }
  }

  let clock: TestClock<Duration>

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .rows(.element(let id, .load)) where id == 1:
        state.rows.remove(id: id)
        return .none
      case .rows, .loadAndRemove:
        return .none
      }
    }
    .forEach(\.rows, action: Action.rowsCase) { Row(clock: clock) }
  }
}

/// A list whose rows are reached through a computed property: not a stored-property path, so
/// `forEach` goes through the key-path runtime.
struct ComputedRows: Reducer {
  struct State: Equatable, Sendable {
    var storage: IdentifiedArrayOf<Row.State> = [Row.State(id: 1), Row.State(id: 2)]
    var rows: IdentifiedArrayOf<Row.State> {
      get { storage }
      set { storage = newValue }
    }
  }

  enum Action: Equatable, Sendable {
    case rows(IdentifiedActionOf<Row>)
    case remove(Int)

    static let rowsCase = casePath(Action.rows) {
      if case .rows(let action) = $0 { action } else { nil }
    }
  }

  let clock: TestClock<Duration>

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .remove(let id) = action { state.rows.remove(id: id) }
      return .none
    }
    .forEach(\.rows, action: Action.rowsCase) { Row(clock: clock) }
  }
}

extension Engine {
  @MainActor
  @Suite struct ForEachTests {
    @Test func aRowRemovedByTheActionThatStartedItsEffectCancelsItWhenNothingElseRuns() async {
      let clock = TestClock()
      let store = Store(initialState: Loaders.State()) { Loaders(clock: clock) }
      #expect(store.runningEffectCount == 0)
      let removed = store.send(.rows(.element(id: 1, action: .load)))
      await removed.finish()
      #expect(store.runningEffectCount == 0)
      await clock.advance(by: .seconds(2))
      #expect(store.rows.ids.elements == [2])
    }

    @Test func aRowRemovedWhileAnotherRowsEffectRunsCancelsOnlyItsOwn() async {
      let clock = TestClock()
      let store = Store(initialState: Loaders.State()) { Loaders(clock: clock) }
      let kept = store.send(.rows(.element(id: 2, action: .load)))
      let removed = store.send(.rows(.element(id: 1, action: .load)))
      await removed.finish()
      #expect(store.runningEffectCount == 1)
      await clock.advance(by: .seconds(1))
      await kept.finish()
      #expect(store.rows.map(\.value) == [20])
    }

    @Test func forEachThroughAComputedPropertyWritesTheRowAndCancelsARemovedRowsEffects() async {
      let clock = TestClock()
      let store = Store(initialState: ComputedRows.State()) { ComputedRows(clock: clock) }
      store.send(.rows(.element(id: 2, action: .toggle)))
      #expect(store.rows.map(\.value) == [0, 1])
      let removed = store.send(.rows(.element(id: 1, action: .load)))
      store.send(.remove(1))
      await removed.finish()
      #expect(store.runningEffectCount == 0)
      #expect(store.rows.ids.elements == [2])
    }

    /// `forEach` reaches a stored collection through its offset in the state (the fast path) and
    /// any other through the key-path runtime (the slow path): both write the row, run its effect
    /// in the row's namespace and tell the row's store, and the fast path writes in place.
    @Test func elementActionsWriteInPlaceThroughTheOffsetOrTheKeyPath() async {
      let clock = TestClock()
      let stored = Reduce<Loaders.State, Loaders.Action> { _, _ in .none }
        .forEach(\.rows, action: Loaders.Action.rowsCase) { Row(clock: clock) }
      let computed = Reduce<ComputedRows.State, ComputedRows.Action> { _, _ in .none }
        .forEach(\.rows, action: ComputedRows.Action.rowsCase) { Row(clock: clock) }
      #expect(stored.elementsOffset != nil)
      #expect(computed.elementsOffset == nil)

      var state = Loaders.State()
      let storage = state.rows.elements.withUnsafeBufferPointer { $0.baseAddress }
      #expect(stored.reduce(into: &state, action: .rows(.element(id: 2, action: .toggle))).isNone)
      #expect(state.rows.map(\.value) == [0, 1])
      #expect(state.rows.elements.withUnsafeBufferPointer { $0.baseAddress } == storage)

      var computedState = ComputedRows.State()
      #expect(
        computed.reduce(into: &computedState, action: .rows(.element(id: 2, action: .toggle)))
          .isNone)
      #expect(computedState.rows.map(\.value) == [0, 1])

      for path in ["stored", "computed"] {
        let toggled: [Int]
        let loaded: [Int]
        if path == "stored" {
          let store = Store(initialState: Loaders.State(), reducer: stored)
          let rowStores = [1, 2].map {
            store.scope(state: \.rows, id: $0, action: Loaders.Action.rows)!
          }
          let notified = rowStores.map { row in track { _ = row.value } }
          store.send(.rows(.element(id: 2, action: .toggle)))
          toggled = notified.map(\.value)
          let task = store.send(.rows(.element(id: 2, action: .load)))
          await clock.advance(by: .seconds(1))
          await task.finish()
          loaded = store.rows.map(\.value)
        } else {
          let store = Store(initialState: ComputedRows.State(), reducer: computed)
          let rowStores = [1, 2].map {
            store.scope(state: \.rows, id: $0, action: ComputedRows.Action.rows)!
          }
          let notified = rowStores.map { row in track { _ = row.value } }
          store.send(.rows(.element(id: 2, action: .toggle)))
          toggled = notified.map(\.value)
          let task = store.send(.rows(.element(id: 2, action: .load)))
          await clock.advance(by: .seconds(1))
          await task.finish()
          loaded = store.rows.map(\.value)
        }
        #expect(toggled == [0, 1], "\(path)")
        #expect(loaded == [0, 20], "\(path)")
      }
    }

  }
}
