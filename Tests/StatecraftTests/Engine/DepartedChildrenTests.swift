import Clocks
import IdentifiedCollections
import StatecraftTesting
import Testing

@testable import Statecraft

/// A row that holds rows of its own.
struct Bin: Reducer {
  struct State: Equatable, Identifiable, Sendable {
    let id: Int
    var items: IdentifiedArrayOf<Pinger.State> = []
  }

  enum Action: Equatable, Sendable {
    case items(IdentifiedActionOf<Pinger>)
    case removeItem(Int)

    static let itemsCase = casePath(Action.items) {
      if case .items(let action) = $0 { action } else { nil }
    }
  }

  let clock: TestClock<Duration>

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .removeItem(let id) = action { state.items.remove(id: id) }
      return .none
    }
    .forEach(\.items, action: Action.itemsCase) { Pinger(clock: clock) }
  }
}

/// Rows whose parent changes its collection in every way a collection can change: in place,
/// wholesale, from a saved copy, and the rows of its rows.
struct Shelf: Reducer {
  struct State: Equatable, Sendable {
    var rows: IdentifiedArrayOf<Pinger.State> = []
    var saved: IdentifiedArrayOf<Pinger.State> = []
    var bins: IdentifiedArrayOf<Bin.State> = []
    /// Whether a row is removed by the action that pings it.
    var removesPingedRows = false
  }

  enum Action: Equatable, Sendable {
    case rows(IdentifiedActionOf<Pinger>)
    case bins(IdentifiedActionOf<Bin>)
    case add(Int)
    case replaceFirstRow(with: Int)
    case removeAndAddBack(Int)
    case save
    case restore
    case reassignRows
    case rebuildRows
    case removeItem(bin: Int, item: Int)
    case removeBin(Int)

    static let rowsCase = casePath(Action.rows) {
      if case .rows(let action) = $0 { action } else { nil }
    }
    static let binsCase = casePath(Action.bins) {
      if case .bins(let action) = $0 { action } else { nil }
    }
  }

  let clock: TestClock<Duration>

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .add(let id):
        state.rows.append(Pinger.State(id: id))
      case .replaceFirstRow(let id):
        state.rows[0] = Pinger.State(id: id)
      case .removeAndAddBack(let id):
        state.rows.remove(id: id)
        state.rows.append(Pinger.State(id: id))
      case .save:
        state.saved = state.rows
      case .restore:
        state.rows = state.saved
      case .reassignRows:
        let rows = state.rows
        state.rows = rows
      case .rebuildRows:
        state.rows = IdentifiedArray(uniqueElements: Array(state.rows))
      case .removeItem(let bin, let item):
        state.bins[id: bin]?.items.remove(id: item)
      case .removeBin(let id):
        state.bins.remove(id: id)
      case .rows(.element(let id, .ping)) where state.removesPingedRows:
        state.rows.remove(id: id)
      case .rows, .bins:
        break
      }
      return .none
    }
    .forEach(\.rows, action: Action.rowsCase) { Pinger(clock: clock) }
    .forEach(\.bins, action: Action.binsCase) { Bin(clock: clock) }
  }
}

extension Engine {
  /// The check after each action that cancels the effects of departed children scales with
  /// what changed: these are the ways a collection changes that it must still see.
  @MainActor
  @Suite struct DepartedChildrenTests {
    func board(rows: [Int], bins: [Bin.State] = [], clock: TestClock<Duration>) -> StoreOf<Shelf> {
      var state = Shelf.State()
      state.rows = IdentifiedArray(uniqueElements: rows.map { Pinger.State(id: $0) })
      state.bins = IdentifiedArray(uniqueElements: bins)
      return Store(initialState: state) { Shelf(clock: clock) }
    }

    func load(_ ids: [Int], in store: StoreOf<Shelf>) -> [StoreTask] {
      ids.map { store.send(.rows(.element(id: $0, action: .load))) }
    }

    @Test func aSendToOneRowLooksUpNoRowWhileEveryRowRunsAnEffect() async {
      let clock = TestClock()
      let store = board(rows: Array(0..<100), clock: clock)
      let loads = load(Array(0..<100), in: store)
      let lookups = store.core.runtime.effects.childInstances.lookups
      for id in 0..<100 { store.send(.rows(.element(id: id, action: .pong))) }
      #expect(store.core.runtime.effects.childInstances.lookups - lookups == 0)
      #expect(store.rows.allSatisfy { $0.pongs == 1 })
      store.send(.add(100))
      #expect(store.core.runtime.effects.activeEffectCount == 100)
      await clock.run()
      for load in loads { await load.finish() }
      #expect(store.rows.filter { $0.loaded == $0.id }.count == 100)
    }

    @Test func aRowReplacedInPlaceByAnotherIDLosesItsEffectsAndTheOthersKeepTheirs() async {
      let clock = TestClock()
      let store = board(rows: [1, 2, 3], clock: clock)
      let loads = load([1, 2, 3], in: store)
      store.send(.rows(.element(id: 2, action: .pong)))  // the check has seen the rows
      store.send(.replaceFirstRow(with: 9))
      #expect(store.core.runtime.effects.activeEffectCount == 2)
      // A late `loaded` for row 1 would be reported as an action for a missing row.
      await clock.run()
      for load in loads { await load.finish() }
      #expect(store.rows.map(\.id) == [9, 2, 3])
      #expect(store.rows.map(\.loaded) == [nil, 2, 3])
    }

    @Test func aRowRemovedAndAddedBackWithTheSameIDInOneActionKeepsItsEffects() async {
      let clock = TestClock()
      let store = board(rows: [1, 2], clock: clock)
      let loads = load([1, 2], in: store)
      store.send(.removeAndAddBack(1))  // the same identity: the same instance
      #expect(store.core.runtime.effects.activeEffectCount == 2)
      await clock.run()
      for load in loads { await load.finish() }
      #expect(store.rows.map(\.id) == [2, 1])
      #expect(store.rows.map(\.loaded) == [2, 1])
    }

    @Test func aRowRemovedAndAddedBackInSeparateActionsLosesItsEffects() async {
      let clock = TestClock()
      let store = board(rows: [1, 2], clock: clock)
      let loads = load([1, 2], in: store)
      store.send(.save)
      store.send(.restore)  // an equal copy: nothing left
      store.send(.rows(.element(id: 2, action: .pong)))
      #expect(store.core.runtime.effects.activeEffectCount == 2)
      store.send(.replaceFirstRow(with: 3))
      store.send(.replaceFirstRow(with: 1))
      #expect(store.core.runtime.effects.activeEffectCount == 1)
      await clock.run()
      for load in loads { await load.finish() }
      #expect(store.rows.map(\.loaded) == [nil, 2])
    }

    @Test func rowsRestoredFromAnEarlierCopyLoseTheEffectsOfTheRowsTheCopyLacks() async {
      let clock = TestClock()
      let store = board(rows: [1, 2], clock: clock)
      store.send(.save)
      store.send(.add(3))
      let loads = load([1, 2, 3], in: store)
      store.send(.rows(.element(id: 1, action: .pong)))
      store.send(.restore)
      #expect(store.core.runtime.effects.activeEffectCount == 2)
      await clock.run()
      for load in loads { await load.finish() }
      #expect(store.rows.map(\.loaded) == [1, 2])
    }

    @Test func aCollectionReplacedWholesaleByACopyWithTheSameRowsKeepsItsEffects() async {
      let clock = TestClock()
      let store = board(rows: [1, 2, 3], clock: clock)
      let loads = load([1, 2, 3], in: store)
      store.send(.reassignRows)  // the same storage
      store.send(.rebuildRows)  // other storage, the same ids
      store.send(.save)
      store.send(.restore)
      #expect(store.core.runtime.effects.activeEffectCount == 3)
      await clock.run()
      for load in loads { await load.finish() }
      #expect(store.rows.map(\.loaded) == [1, 2, 3])
    }

    @Test func aNestedRowRemovedByItsGrandparentLosesItsEffects() async {
      let clock = TestClock()
      let bins = [
        Bin.State(id: 1, items: [Pinger.State(id: 1), Pinger.State(id: 2)]),
        Bin.State(id: 2, items: [Pinger.State(id: 1)]),
      ]
      let store = board(rows: [7], bins: bins, clock: clock)
      var tasks = load([7], in: store)
      for (bin, item) in [(1, 1), (1, 2), (2, 1)] {
        tasks.append(
          store.send(.bins(.element(id: bin, action: .items(.element(id: item, action: .load))))))
      }
      #expect(store.core.runtime.effects.activeEffectCount == 4)
      // The outer collection's ids do not change: only the rows of bin 1 do.
      store.send(.removeItem(bin: 1, item: 1))
      #expect(store.core.runtime.effects.activeEffectCount == 3)
      // The bin's own reducer removes one of its rows.
      store.send(.bins(.element(id: 1, action: .removeItem(2))))
      #expect(store.core.runtime.effects.activeEffectCount == 2)
      await clock.run()
      for task in tasks { await task.finish() }
      #expect(store.bins[id: 1]?.items.isEmpty == true)
      #expect(store.bins[id: 2]?.items[id: 1]?.loaded == 1)
      #expect(store.rows[id: 7]?.loaded == 7)
    }

    @Test func theNestedRowsOfARemovedRowLoseTheirEffects() async {
      let clock = TestClock()
      let bins = [
        Bin.State(id: 1, items: [Pinger.State(id: 1)]),
        Bin.State(id: 2, items: [Pinger.State(id: 1)]),
      ]
      let store = board(rows: [], bins: bins, clock: clock)
      let removed = store.send(
        .bins(.element(id: 1, action: .items(.element(id: 1, action: .load)))))
      let kept = store.send(.bins(.element(id: 2, action: .items(.element(id: 1, action: .load)))))
      store.send(.removeBin(1))
      #expect(store.core.runtime.effects.activeEffectCount == 1)
      await clock.run()
      await removed.finish()
      await kept.finish()
      #expect(store.bins.map(\.id) == [2])
      #expect(store.bins[id: 2]?.items[id: 1]?.loaded == 1)
    }

    @Test func aRowsQueuedSendIsDroppedWhenTheActionThatMadeItRemovesTheRow() async {
      let clock = TestClock()
      var initial = Shelf.State()
      initial.rows = [Pinger.State(id: 1), Pinger.State(id: 2), Pinger.State(id: 3)]
      initial.removesPingedRows = true
      let store = Store(initialState: initial) { Shelf(clock: clock) }
      let loads = load([2, 3], in: store)
      store.send(.rows(.element(id: 3, action: .pong)))
      // Row 1's `.pong` is queued behind the action that removes row 1: reduced, it would be
      // reported as an action for a missing row.
      store.send(.rows(.element(id: 1, action: .ping)))
      #expect(store.rows.map(\.id) == [2, 3])
      await clock.run()
      for load in loads { await load.finish() }
      #expect(store.rows.map(\.loaded) == [2, 3])
    }
  }
}

extension Engine.DepartedChildrenTests {
  @Test func aTestStoreSeesNoLateActionFromARowReplacedInPlace() async {
    let clock = TestClock()
    var initial = Shelf.State()
    initial.rows = [Pinger.State(id: 1), Pinger.State(id: 2)]
    let store = TestStore(initialState: initial) { Shelf(clock: clock) }
    await store.send(.rows(.element(id: 1, action: .load)))
    await store.send(.rows(.element(id: 2, action: .load)))
    await store.send(.replaceFirstRow(with: 3)) {
      $0.rows = [Pinger.State(id: 3), Pinger.State(id: 2)]
    }
    await clock.run()
    await store.receive(.rows(.element(id: 2, action: .loaded(2)))) {
      $0.rows[id: 2]?.loaded = 2
    }
    await store.finish()
  }
}
