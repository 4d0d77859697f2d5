import ConcurrencyExtras
import IdentifiedCollections
import Observation
import Testing

@testable import Statecraft

/// How many times `Cell.State.observedValue` was computed (each comparison of an observed row
/// computes it once).
@MainActor var observedValueReads = 0

/// A row whose action can write it twice in one batch.
struct Cell: Reducer {
  struct State: Equatable, Identifiable, Sendable {
    let id: Int
    var value = 0

    /// `value`, counting its reads: shows which rows a batch re-checked.
    var observedValue: Int {
      MainActor.assumeIsolated { observedValueReads += 1 }
      return value
    }
  }

  enum Action: Equatable, Sendable {
    case bump
    case bumpTwice
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .bump:
      state.value += 1
      return .none
    case .bumpTwice:
      state.value += 1
      return .send(.bump)
    }
  }
}

/// Five cells, written by element actions, by the `forEach`'s parent and by a reducer outside it.
struct Board: Reducer {
  struct State: Equatable, Sendable {
    var cells = IdentifiedArray(uniqueElements: (1...5).map { Cell.State(id: $0) })
  }

  enum Action: Equatable, Sendable {
    case cells(IdentifiedActionOf<Cell>)
    case set(id: Int, value: Int)
    case move(id: Int, to: Int)
    case remove(id: Int)
    case replace([Cell.State])
    case previewThenSet(id: Int)

    static let cellsCase = casePath(Action.cells) {
      if case .cells(let action) = $0 { action } else { nil }
    }
  }

  /// The cells' `forEach` alone.
  static var cells: some Reducer<State, Action> {
    Reduce<State, Action> { _, _ in .none }
      .forEach(\.cells, action: Action.cellsCase) { Cell() }
  }

  var body: some Reducer<State, Action> {
    CombineReducers {
      Reduce { state, action in
        switch action {
        case .set(let id, let value):
          state.cells[id: id]?.value = value
        case .move(let id, let index):
          if let cell = state.cells.remove(id: id) { state.cells.insert(cell, at: index) }
        case .remove(let id):
          state.cells.remove(id: id)
        case .replace(let cells):
          state.cells = IdentifiedArray(uniqueElements: cells)
        case .previewThenSet(let id):
          // Reduces a row action on a copy of the state (sharing the rows' storage), then writes
          // another row of the real state in place.
          var preview = state
          _ = Self.cells.reduce(into: &preview, action: .cells(.element(id: 1, action: .bump)))
          state.cells[id: id]?.value = preview.cells[id: 1]?.value ?? 0
        case .cells(.element(id: 1, action: .bumpTwice)):
          // The parent reacts to a row's action by writing another row.
          state.cells[id: 5]?.value += 100
        case .cells:
          break
        }
        return .none
      }
      .forEach(\.cells, action: Action.cellsCase) { Cell() }
      // Outside the `forEach`: row 2's actions also write row 3.
      Reduce { state, action in
        if case .cells(.element(id: 2, action: _)) = action {
          state.cells[id: 3]?.value += 10
        }
        return .none
      }
    }
  }
}

extension Engine {
  @MainActor
  @Suite struct RowStoreTests {
    func rowStores(_ store: StoreOf<Board>) -> [StoreOf<Cell>] {
      (1...5).map { id in store.scope(state: \.cells, id: id, action: Board.Action.cells)! }
    }

    @Test func aRowStoreReadsItsRowAndSendsToTheRoot() {
      let store = Store(initialState: Board.State()) { Board() }
      func scope(_ id: Int) -> StoreOf<Cell>? {
        store.scope(state: \.cells, id: id, action: Board.Action.cells)
      }
      let row = scope(4)
      row?.send(.bump)
      #expect(row?.value == 1)
      #expect(store.cells[id: 4]?.value == 1)
      #expect(row === scope(4))
      #expect(row !== scope(3))
      #expect(scope(9) == nil)
    }

    @Test func oneChangedRowNotifiesOnlyItsObserver() {
      let store = Store(initialState: Board.State()) { Board() }
      let rows = rowStores(store)
      let notified = rows.map { row in track { _ = row.value } }
      store.send(.cells(.element(id: 4, action: .bump)))
      #expect(notified.map(\.value) == [0, 0, 0, 1, 0])
    }

    @Test func aBatchRechecksOnlyTheRowsItWrote() {
      let store = Store(initialState: Board.State()) { Board() }
      let rows = rowStores(store)
      let notified = rows.map { row in track { _ = row.observedValue } }
      observedValueReads = 0
      store.send(.cells(.element(id: 4, action: .bump)))
      #expect(notified.map(\.value) == [0, 0, 0, 1, 0])
      #expect(observedValueReads == 1)
    }

    @Test func aRowWrittenByTheForEachParentNotifiesItsObserver() {
      let store = Store(initialState: Board.State()) { Board() }
      let rows = rowStores(store)
      var notified = rows.map { row in track { _ = row.value } }
      store.send(.set(id: 2, value: 7))
      #expect(notified.map(\.value) == [0, 1, 0, 0, 0])
      #expect(rows[1].value == 7)

      notified = rows.map { row in track { _ = row.value } }
      store.send(.cells(.element(id: 1, action: .bumpTwice)))
      #expect(notified.map(\.value) == [1, 0, 0, 0, 1])
      #expect(rows.map(\.value) == [2, 7, 0, 0, 100])
    }

    @Test func aRowWrittenOutsideTheForEachNotifiesItsObserver() {
      let store = Store(initialState: Board.State()) { Board() }
      let rows = rowStores(store)
      let notified = rows.map { row in track { _ = row.value } }
      store.send(.cells(.element(id: 2, action: .bump)))
      #expect(notified.map(\.value) == [0, 1, 1, 0, 0])
      #expect(rows[2].value == 10)
    }

    @Test func aRowWrittenAfterARowActionOnACopyOfTheStateNotifiesItsObserver() {
      let store = Store(initialState: Board.State()) { Board() }
      let rows = rowStores(store)
      let notified = rows.map { row in track { _ = row.value } }
      store.send(.previewThenSet(id: 2))
      #expect(notified.map(\.value) == [0, 1, 0, 0, 0])
      #expect(rows.map(\.value) == [0, 1, 0, 0, 0])
    }

    @Test func aRowObserverIsNotifiedOncePerBatch() {
      let store = Store(initialState: Board.State()) { Board() }
      let row = store.scope(state: \.cells, id: 3, action: Board.Action.cells)!
      let notified = track { _ = row.value }
      row.send(.bumpTwice)
      #expect(notified.value == 1)
      #expect(row.value == 2)
    }

    @Test func aRowStoreFollowsItsRowWhenItMoves() {
      let store = Store(initialState: Board.State()) { Board() }
      let rows = rowStores(store)
      var notified = rows.map { row in track { _ = row.value } }
      store.send(.move(id: 2, to: 4))
      #expect(store.cells.ids.elements == [1, 3, 4, 5, 2])
      #expect(notified.map(\.value) == [0, 0, 0, 0, 0])

      rows[1].send(.bump)
      #expect(notified.map(\.value) == [0, 1, 1, 0, 0])
      #expect(rows[1].value == 1)
      notified = rows.map { row in track { _ = row.value } }
      store.send(.cells(.element(id: 4, action: .bump)))
      #expect(notified.map(\.value) == [0, 0, 0, 1, 0])
    }

    @Test func aRemovedRowsStoreKeepsItsLastStateAndItsScopeBecomesNil() {
      let store = Store(initialState: Board.State()) { Board() }
      store.send(.set(id: 3, value: 5))
      let row = store.scope(state: \.cells, id: 3, action: Board.Action.cells)!
      let presence = track { _ = store.scope(state: \.cells, id: 3, action: Board.Action.cells) }
      let otherPresence = track {
        _ = store.scope(state: \.cells, id: 4, action: Board.Action.cells)
      }
      let value = track { _ = row.value }
      store.send(.cells(.element(id: 3, action: .bump)))
      #expect(presence.value == 0)
      #expect(value.value == 1)

      store.send(.remove(id: 3))
      #expect(presence.value == 1)
      #expect(otherPresence.value == 0)
      #expect(store.scope(state: \.cells, id: 3, action: Board.Action.cells) == nil)
      #expect(row.value == 6)
    }

    @Test func aRowStoreOfAReplacedRowReadsTheNewRow() {
      let store = Store(initialState: Board.State()) { Board() }
      let rows = rowStores(store)
      let notified = rows.map { row in track { _ = row.value } }
      store.send(.replace((1...5).map { Cell.State(id: $0, value: $0 == 5 ? 50 : 0) }))
      #expect(notified.map(\.value) == [0, 0, 0, 0, 1])
      #expect(rows[4].value == 50)
    }

    @Test func aRowThatComesBackIsPresentAgain() {
      let store = Store(initialState: Board.State()) { Board() }
      store.send(.remove(id: 2))
      let presence = track { _ = store.scope(state: \.cells, id: 2, action: Board.Action.cells) }
      store.send(.replace([Cell.State(id: 2, value: 3)]))
      #expect(presence.value == 1)
      #expect(store.scope(state: \.cells, id: 2, action: Board.Action.cells)?.value == 3)
    }

    @Test func observeRerunsForItsRowOnly() {
      let store = Store(initialState: Board.State()) { Board() }
      let row = store.scope(state: \.cells, id: 5, action: Board.Action.cells)!
      var seen: [Int] = []
      let token = row.observe { row in seen.append(row.value) }
      store.send(.cells(.element(id: 4, action: .bump)))
      store.send(.cells(.element(id: 5, action: .bump)))
      #expect(seen == [0, 1])
      withExtendedLifetime(token) {}
    }
  }
}
