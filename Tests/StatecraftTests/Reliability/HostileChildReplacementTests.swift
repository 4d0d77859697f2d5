import Clocks
import ConcurrencyExtras
import IdentifiedCollections
import IssueReporting
import StatecraftCombine
import Testing

@testable import Statecraft

/// Children replaced in every way: an optional child a hundred times in one batch, rows swapped,
/// moved and rebuilt, an enum switching case and back, and rows of an optional child of rows
/// removed at each level.
struct Director: Reducer {
  /// A child without identity (only its presence) that holds rows.
  struct Detail: Reducer {
    struct State: Equatable, Sendable {
      var items: IdentifiedArrayOf<Pinger.State> = []
    }
    enum Action: Equatable, Sendable {
      case items(IdentifiedActionOf<Pinger>)
      static let itemsCase = casePath(Action.items) {
        if case .items(let action) = $0 { action } else { nil }
      }
    }
    let clock: TestClock<Duration>
    var body: some Reducer<State, Action> {
      EmptyReducer()
        .forEach(\.items, action: Action.itemsCase) { Pinger(clock: clock) }
    }
  }

  /// A row with an optional child.
  struct Group: Reducer {
    struct State: Equatable, Identifiable, Sendable {
      let id: Int
      var detail: Detail.State?
    }
    enum Action: Equatable, Sendable {
      case detail(Detail.Action)
      static let detailCase = casePath(Action.detail) {
        if case .detail(let action) = $0 { action } else { nil }
      }
    }
    let clock: TestClock<Duration>
    var body: some Reducer<State, Action> {
      EmptyReducer()
        .ifLet(\.detail, action: Action.detailCase) { Detail(clock: clock) }
    }
  }

  struct State: Equatable, Sendable {
    var holder = Holder.State()
    var groups: IdentifiedArrayOf<Group.State> = []
  }

  enum Action: Equatable, Sendable {
    case holder(Holder.Action)
    case groups(IdentifiedActionOf<Group>)
    case showAndLoad(Int, upTo: Int)
    case flipModeAndBack
    case flipModeInTwoActions
    case setMode(Holder.Mode)
    case swapRows
    case moveLastRowFirst
    case rebuildRowsWithNewValues
    case removeRow(Int)
    case dismissChild
    case removeGroup(Int)
    case dismissDetail(group: Int)
    case removeItem(group: Int, item: Int)
    case pingAndSwapRows(Int)

    static let holderCase = casePath(Action.holder) {
      if case .holder(let action) = $0 { action } else { nil }
    }
    static let groupsCase = casePath(Action.groups) {
      if case .groups(let action) = $0 { action } else { nil }
    }
  }

  let clock: TestClock<Duration>

  var body: some Reducer<State, Action> {
    Scope(state: \.holder, action: Action.holderCase) { Holder(clock: clock) }
    Reduce { state, action in
      switch action {
      case .showAndLoad(let id, let last):
        state.holder.child = Pinger.State(id: id)
        return .merge(
          .send(.holder(.child(.load))),
          id < last ? .send(.showAndLoad(id + 1, upTo: last)) : .none)
      case .flipModeAndBack:
        state.holder.mode = .viewing(1)
        state.holder.mode = .editing(1)
      case .flipModeInTwoActions:
        return .merge(.send(.setMode(.viewing(1))), .send(.setMode(.editing(1))))
      case .setMode(let mode):
        state.holder.mode = mode
      case .swapRows:
        state.holder.rows.swapAt(0, 1)
      case .moveLastRowFirst:
        state.holder.rows.move(fromOffsets: [state.holder.rows.count - 1], toOffset: 0)
      case .rebuildRowsWithNewValues:
        state.holder.rows = IdentifiedArray(
          uniqueElements: state.holder.rows.ids.map { Pinger.State(id: $0, pongs: 100) })
      case .removeRow(let id):
        state.holder.rows.remove(id: id)
      case .dismissChild:
        state.holder.child = nil
      case .removeGroup(let id):
        state.groups.remove(id: id)
      case .dismissDetail(let group):
        state.groups[id: group]?.detail = nil
      case .removeItem(let group, let item):
        state.groups[id: group]?.detail?.items.remove(id: item)
      case .pingAndSwapRows(let id):
        state.holder.rows.swapAt(0, 1)
        return .send(.holder(.rows(.element(id: id, action: .ping))))
      case .holder, .groups:
        break
      }
      return .none
    }
    .forEach(\.groups, action: Action.groupsCase) { Group(clock: clock) }
  }
}

/// A child that listens to a publisher which emits all its values while it is subscribed to;
/// its parent replaces or removes it on the first value.
struct Listener: Reducer {
  struct State: Equatable, Identifiable, Sendable {
    let id: Int
    var heard: [Int] = []
  }
  enum Action: Equatable, Sendable {
    case listen
    case heard(Int)
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .listen:
      return .publisher([1, 2, 3].publisher.map(Action.heard))
    case .heard(let value):
      state.heard.append(value)
      return .none
    }
  }
}

struct Switchboard: Reducer {
  struct State: Equatable, Sendable {
    var child: Listener.State?
    var rows: IdentifiedArrayOf<Listener.State> = []
    /// Whether the child is replaced by the action that makes it subscribe.
    var replacesOnListen = false
  }
  enum Action: Equatable, Sendable {
    case child(Listener.Action)
    case rows(IdentifiedActionOf<Listener>)
    static let childCase = casePath(Action.child) {
      if case .child(let action) = $0 { action } else { nil }
    }
    static let rowsCase = casePath(Action.rows) {
      if case .rows(let action) = $0 { action } else { nil }
    }
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .child(.heard(1)):
        state.child = Listener.State(id: state.child!.id + 100)
      case .child(.listen) where state.replacesOnListen:
        state.child = Listener.State(id: state.child!.id + 100)
      case .rows(.element(let id, .heard(1))):
        state.rows.remove(id: id)
      case .child, .rows:
        break
      }
      return .none
    }
    .ifLet(\.child, action: Action.childCase) { Listener() }
    .forEach(\.rows, action: Action.rowsCase) { Listener() }
  }
}

/// A session scoped from a parent that logs out and back in, in one action or in two.
struct Gatekeeper: Reducer {
  struct State: Equatable, Sendable {
    var session = Session.State.loggedOut
  }
  enum Action: Equatable, Sendable {
    case session(Session.Action)
    case reloginInOneAction(Int)
    case reloginInTwoActions(Int)
    static let sessionCase = casePath(Action.session) {
      if case .session(let action) = $0 { action } else { nil }
    }
  }
  let clock: TestClock<Duration>
  var body: some Reducer<State, Action> {
    Scope(state: \.session, action: Action.sessionCase) { Session(clock: clock) }
    Reduce { state, action in
      switch action {
      case .reloginInOneAction(let id):
        state.session = .loggedOut
        state.session = .loggedIn(Pinger.State(id: id))
        return .none
      case .reloginInTwoActions(let id):
        return .merge(.send(.session(.logOut)), .send(.session(.logIn(id))))
      case .session:
        return .none
      }
    }
  }
}

extension Engine {
  @MainActor
  @Suite struct HostileChildReplacementTests {
    func director(
      rows: [Int] = [], groups: [Director.Group.State] = [], clock: TestClock<Duration>
    ) -> StoreOf<Director> {
      var state = Director.State()
      state.holder.rows = IdentifiedArray(uniqueElements: rows.map { Pinger.State(id: $0) })
      state.groups = IdentifiedArray(uniqueElements: groups)
      return Store(initialState: state) { Director(clock: clock) }
    }

    @Test func anIfLetChildReplacedAHundredTimesInOneBatchKeepsOnlyTheLastChildsEffect() async {
      let clock = TestClock()
      let store = director(clock: clock)
      let task = store.send(.showAndLoad(1, upTo: 100))
      #expect(store.holder.child == Pinger.State(id: 100))
      #expect(store.core.runtime.effects.activeEffectCount == 1)
      await clock.run()
      await task.finish()
      #expect(store.holder.child == Pinger.State(id: 100, loaded: 100))
    }

    @Test func swappedRowsKeepTheirEffectsAndEachResponseReachesItsOwnRow() async {
      let clock = TestClock()
      let store = director(rows: [1, 2, 3], clock: clock)
      let loads = [1, 2, 3].map { store.send(.holder(.rows(.element(id: $0, action: .load)))) }
      store.send(.swapRows)
      store.send(.moveLastRowFirst)
      #expect(store.holder.rows.ids == [3, 2, 1])
      #expect(store.core.runtime.effects.activeEffectCount == 3)
      await clock.run()
      for load in loads { await load.finish() }
      #expect(store.holder.rows.map(\.loaded) == [3, 2, 1])
    }

    @Test func rowsRebuiltWithTheSameIDsAndNewValuesKeepTheirEffects() async {
      let clock = TestClock()
      let store = director(rows: [1, 2], clock: clock)
      let loads = [1, 2].map { store.send(.holder(.rows(.element(id: $0, action: .load)))) }
      store.send(.holder(.rows(.element(id: 1, action: .ping))))
      store.send(.rebuildRowsWithNewValues)
      #expect(store.core.runtime.effects.activeEffectCount == 2)
      await clock.run()
      for load in loads { await load.finish() }
      #expect(store.holder.rows.map(\.pongs) == [100, 100])
      #expect(store.holder.rows.map(\.loaded) == [1, 2])
    }

    @Test func anEnumChildThatSwitchesCaseAndBackInOneActionKeepsItsEffects() async {
      let clock = TestClock()
      let store = director(clock: clock)
      store.send(.setMode(.editing(1)))
      let load = store.send(.holder(.mode(.load)))
      store.send(.flipModeAndBack)
      #expect(store.core.runtime.effects.activeEffectCount == 1)
      await clock.run()
      await load.finish()
      #expect(store.holder.modeLoads == [1])
    }

    @Test func anEnumChildThatSwitchesCaseAndBackInTwoActionsLosesItsEffects() async {
      let clock = TestClock()
      let store = director(clock: clock)
      store.send(.setMode(.editing(1)))
      let load = store.send(.holder(.mode(.load)))
      store.send(.flipModeInTwoActions)
      #expect(store.holder.mode == .editing(1))
      #expect(store.core.runtime.effects.activeEffectCount == 0)
      await clock.run()
      await load.finish()
      #expect(store.holder.modeLoads == [])
    }

    func nested(clock: TestClock<Duration>) -> StoreOf<Director> {
      director(
        groups: [
          Director.Group.State(
            id: 1,
            detail: Director.Detail.State(items: [Pinger.State(id: 10), Pinger.State(id: 11)])),
          Director.Group.State(
            id: 2, detail: Director.Detail.State(items: [Pinger.State(id: 20)])),
        ],
        clock: clock)
    }

    func loadItem(_ item: Int, group: Int, in store: StoreOf<Director>) -> StoreTask {
      store.send(
        .groups(.element(id: group, action: .detail(.items(.element(id: item, action: .load))))))
    }

    @Test func rowsOfAnOptionalChildOfRowsLoseTheirEffectsWhenRemovedAtEachLevel() async {
      let clock = TestClock()
      let store = nested(clock: clock)
      let loads = [
        loadItem(10, group: 1, in: store), loadItem(11, group: 1, in: store),
        loadItem(20, group: 2, in: store),
      ]
      #expect(store.core.runtime.effects.activeEffectCount == 3)
      store.send(.removeItem(group: 1, item: 10))
      #expect(store.core.runtime.effects.activeEffectCount == 2)
      store.send(.dismissDetail(group: 1))
      #expect(store.core.runtime.effects.activeEffectCount == 1)
      store.send(.removeGroup(2))
      #expect(store.core.runtime.effects.activeEffectCount == 0)
      await clock.run()
      for load in loads { await load.finish() }
      #expect(store.groups.map(\.id) == [1])
      #expect(store.groups[id: 1]?.detail == nil)
    }

    @Test func removingOneNestedRowLeavesItsCousinsEffectsRunning() async {
      let clock = TestClock()
      let store = nested(clock: clock)
      let loads = [
        loadItem(10, group: 1, in: store), loadItem(11, group: 1, in: store),
        loadItem(20, group: 2, in: store),
      ]
      store.send(.removeGroup(2))
      #expect(store.core.runtime.effects.activeEffectCount == 2)
      await clock.run()
      for load in loads { await load.finish() }
      #expect(store.groups[id: 1]?.detail?.items.map(\.loaded) == [10, 11])
    }

    @Test func aHeldRowStoreShowsTheLastStateOfARowRemovedBeforeItWasReadAgain() {
      let clock = TestClock()
      let store = director(rows: [1, 2], clock: clock)
      let row = store.scope(state: \.holder.rows, id: 1) { .holder(.rows($0)) }!
      #expect(row.pongs == 0)
      store.send(.holder(.rows(.element(id: 1, action: .ping))))
      store.send(.holder(.rows(.element(id: 1, action: .ping))))
      store.send(.removeRow(1))
      #expect(row.state == Pinger.State(id: 1, pongs: 2))
    }

    @Test func aHeldChildStoreFromIfLetShowsItsLastStateAfterDismissal() {
      let clock = TestClock()
      let store = director(clock: clock)
      var shown: [Store<Pinger.State, Pinger.Action>] = []
      var dismissals = 0
      let token = store.ifLet(state: \.holder.child, action: { .holder(.child($0)) }) { child in
        shown.append(child)
      } else: {
        dismissals += 1
      }
      #expect(dismissals == 1)
      store.send(.holder(.show(1)))
      #expect(shown.count == 1)
      store.send(.holder(.child(.ping)))
      store.send(.holder(.show(2)))  // still present: `then` is not called again
      store.send(.holder(.child(.ping)))
      store.send(.holder(.child(.ping)))
      #expect(shown.count == 1)
      store.send(.dismissChild)
      #expect(dismissals == 2)
      #expect(shown[0].state == Pinger.State(id: 2, pongs: 2))
      store.send(.holder(.show(3)))
      #expect(shown.count == 2)
      #expect(shown.last?.state == Pinger.State(id: 3))
      withExtendedLifetime(token) {}
    }

    @Test func aChildsValuesQueuedDuringItsSubscriptionNeverReachTheChildThatReplacedIt() {
      let store = Store(initialState: Switchboard.State(child: Listener.State(id: 1))) {
        Switchboard()
      }
      store.send(.child(.listen))
      #expect(store.child == Listener.State(id: 101))
      #expect(store.core.runtime.effects.activeEffectCount == 0)
    }

    @Test func aRowsValuesQueuedDuringItsSubscriptionAreDroppedWhenTheRowIsRemoved() {
      let store = Store(
        initialState: Switchboard.State(rows: [Listener.State(id: 1), Listener.State(id: 2)])
      ) {
        Switchboard()
      }
      store.send(.rows(.element(id: 1, action: .listen)))
      #expect(store.rows == [Listener.State(id: 2)])
      #expect(store.core.runtime.effects.activeEffectCount == 0)
    }
    @Test func aRowsQueuedSendFollowsTheRowWhenItMovesInTheSameBatch() {
      let clock = TestClock()
      let store = director(rows: [1, 2], clock: clock)
      store.send(.pingAndSwapRows(1))
      store.send(.pingAndSwapRows(1))
      #expect(store.holder.rows.ids == [1, 2])
      #expect(store.holder.rows.map(\.pongs) == [2, 0])
    }

    @Test func aRemovedRowsSubjectIsUnsubscribedAtOnceAndItsLaterValuesAreDropped() {
      let subject = PassthroughSubject<Int, Never>()
      let cancelled = LockIsolated(0)
      let publisher = UncheckedSendable(
        subject.handleEvents(receiveCancel: { cancelled.withValue { $0 += 1 } })
          .eraseToAnyPublisher())
      struct Row: Equatable, Identifiable, Sendable {
        let id: Int
        var heard: [Int] = []
      }
      let store = Store(initialState: [Row(id: 1), Row(id: 2)] as IdentifiedArrayOf<Row>) {
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
      store.send(.element(id: 1, action: 0))
      store.send(.element(id: 2, action: 0))
      subject.send(1)
      store.send(.element(id: 1, action: -1))
      #expect(cancelled.value == 1)
      subject.send(2)
      #expect(store.state == [Row(id: 2, heard: [1, 2])])
      #expect(store.core.runtime.effects.activeEffectCount == 1)
    }

    @Test func anErrorThrownByARemovedRowsEffectIsNotReported() async {
      struct Failure: Error {}
      let recorder = IssueRecorder()
      await withIssueReporters(IssueReporters.current + [recorder]) {
        let started = Gate()
        struct Row: Equatable, Identifiable, Sendable { let id: Int }
        let store = Store(initialState: [Row(id: 1)] as IdentifiedArrayOf<Row>) {
          Reduce<IdentifiedArrayOf<Row>, IdentifiedAction<Int, Bool>> { state, action in
            if case .element(let id, false) = action { state.remove(id: id) }
            return .none
          }
          .forEach(\.self, action: casePath({ $0 }, { $0 })) {
            Reduce<Row, Bool> { _, start in
              guard start else { return .none }
              return .run { _ in
                started.open()
                await Gate().wait()  // returns when cancelled
                throw Failure()
              }
            }
          }
        }
        let task = store.send(.element(id: 1, action: true))
        await started.wait()
        store.send(.element(id: 1, action: false))
        await task.finish()
      }
      #expect(recorder.messages.value == [])
    }
    @Test func aChildReplacedByTheActionThatSubscribesHearsNothingOfItsPredecessor() {
      let store = Store(
        initialState: Switchboard.State(child: Listener.State(id: 1), replacesOnListen: true)
      ) {
        Switchboard()
      }
      store.send(.child(.listen))
      #expect(store.child == Listener.State(id: 101))
      #expect(store.core.runtime.effects.activeEffectCount == 0)
    }
    @Test func aCaseScopedChildLoggedOutAndBackInWithinOneActionKeepsItsEffects() async {
      let clock = TestClock()
      let store = Store(initialState: Gatekeeper.State()) { Gatekeeper(clock: clock) }
      store.send(.session(.logIn(1)))
      let load = store.send(.session(.loggedIn(.load)))
      store.send(.reloginInOneAction(1))
      #expect(store.core.runtime.effects.activeEffectCount == 1)
      await clock.run()
      await load.finish()
      #expect(store.session == .loggedIn(Pinger.State(id: 1, loaded: 1)))
    }

    @Test func aCaseScopedChildLoggedOutAndBackInWithinOneBatchLosesItsEffects() async {
      let clock = TestClock()
      let store = Store(initialState: Gatekeeper.State()) { Gatekeeper(clock: clock) }
      store.send(.session(.logIn(1)))
      let load = store.send(.session(.loggedIn(.load)))
      store.send(.reloginInTwoActions(1))
      #expect(store.session == .loggedIn(Pinger.State(id: 1)))
      #expect(store.core.runtime.effects.activeEffectCount == 0)
      await clock.run()
      await load.finish()
      #expect(store.session == .loggedIn(Pinger.State(id: 1)))
    }
  }
}
