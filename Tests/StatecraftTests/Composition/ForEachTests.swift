import Clocks
import IdentifiedCollections
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
  }
}
