import Clocks
import IdentifiedCollections
import StatecraftTesting
import Testing

@testable import Statecraft

/// A child whose `ping` answers at once (`.send`) and whose `load` answers after a second.
struct Pinger: Reducer {
  struct State: Equatable, Identifiable, Sendable {
    let id: Int
    var pongs = 0
    var loaded: Int?
  }

  enum Action: Equatable, Sendable {
    case ping
    case pong
    case load
    case loaded(Int)
  }

  let clock: TestClock<Duration>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .ping:
      return .send(.pong)
    case .pong:
      state.pongs += 1
      return .none
    case .load:
      let id = state.id
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        await send(.loaded(id))
      }
    case .loaded(let id):
      state.loaded = id
      return .none
    }
  }
}

/// A parent with an `Identifiable` optional child, an enum optional child and rows, whose own
/// reducer replaces or removes them.
struct Holder: Reducer {
  /// An enum child: its case is its identity.
  enum Mode: Equatable, Sendable {
    case editing(Int)
    case viewing(Int)
  }

  struct State: Equatable, Sendable {
    var child: Pinger.State?
    var mode: Mode?
    var modeLoads: [Int] = []
    var rows: IdentifiedArrayOf<Pinger.State> = []
  }

  enum Action: Equatable, Sendable {
    case child(Pinger.Action)
    case mode(ModeAction)
    case rows(IdentifiedActionOf<Pinger>)
    case show(Int)
    case setMode(Mode?)

    static let childCase = casePath(Action.child) {
      if case .child(let action) = $0 { action } else { nil }
    }
    static let modeCase = casePath(Action.mode) {
      if case .mode(let action) = $0 { action } else { nil }
    }
    static let rowsCase = casePath(Action.rows) {
      if case .rows(let action) = $0 { action } else { nil }
    }
  }

  enum ModeAction: Equatable, Sendable {
    case load
    case loaded(Int)
  }

  let clock: TestClock<Duration>

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .show(let id):
        state.child = Pinger.State(id: id)
        return .none
      case .setMode(let mode):
        state.mode = mode
        return .none
      case .mode(.loaded(let value)):
        state.modeLoads.append(value)
        return .none
      case .child, .mode, .rows:
        return .none
      }
    }
    .ifLet(\.child, action: Action.childCase) { Pinger(clock: clock) }
    .ifLet(\.mode, action: Action.modeCase) {
      Reduce<Mode, ModeAction> { _, action in
        switch action {
        case .load:
          return .run { [clock] send in
            try await clock.sleep(for: .seconds(1))
            await send(.loaded(1))
          }
        case .loaded:
          return .none
        }
      }
    }
    .forEach(\.rows, action: Action.rowsCase) { Pinger(clock: clock) }
  }
}

/// A grandparent that removes children from below it: the `ifLet` and `forEach` that own them
/// never see the removal around their own parent.
struct Ancestor: Reducer {
  struct State: Equatable, Sendable {
    var holder = Holder.State()
    var optionalHolder: Holder.State?
  }

  enum Action: Equatable, Sendable {
    case holder(Holder.Action)
    case optionalHolder(Holder.Action)
    case clearRows
    case removeRow(Int)
    case dismissChild
    case replaceChild(Int)
    case dismissHolder

    static let holderCase = casePath(Action.holder) {
      if case .holder(let action) = $0 { action } else { nil }
    }
    static let optionalHolderCase = casePath(Action.optionalHolder) {
      if case .optionalHolder(let action) = $0 { action } else { nil }
    }
  }

  let clock: TestClock<Duration>

  var body: some Reducer<State, Action> {
    Scope(state: \.holder, action: Action.holderCase) { Holder(clock: clock) }
    Reduce { state, action in
      switch action {
      case .clearRows:
        state.holder.rows.removeAll()
      case .removeRow(let id):
        state.holder.rows.remove(id: id)
      case .dismissChild:
        state.holder.child = nil
      case .replaceChild(let id):
        state.holder.child = Pinger.State(id: id)
      case .dismissHolder:
        state.optionalHolder = nil
      case .holder, .optionalHolder:
        break
      }
      return .none
    }
    .ifLet(\.optionalHolder, action: Action.optionalHolderCase) { Holder(clock: clock) }
  }
}

extension Engine {
  @MainActor
  @Suite struct ChildIdentityTests {
    // MARK: - A replaced child (issue 14, item 6)

    @Test func anIfLetChildReplacedByAnotherIDLosesItsEffectsAndItsLateResponse() async {
      let clock = TestClock()
      let store = Store(initialState: Holder.State()) { Holder(clock: clock) }
      store.send(.show(1))
      let load = store.send(.child(.load))
      store.send(.show(2))  // another child, never nil in between
      await clock.run()
      await load.finish()
      #expect(store.child == Pinger.State(id: 2))
      #expect(store.runningEffectCount == 0)
    }

    @Test func anIfLetChildReplacedByTheSameIDKeepsItsEffects() async {
      let clock = TestClock()
      let store = Store(initialState: Holder.State()) { Holder(clock: clock) }
      store.send(.show(1))
      let load = store.send(.child(.load))
      store.send(.show(1))  // the same identity: the same instance
      #expect(store.runningEffectCount == 1)
      await clock.advance(by: .seconds(1))
      await load.finish()
      #expect(store.child?.loaded == 1)
    }

    @Test func anIfLetEnumChildThatChangesCaseLosesItsEffects() async {
      let clock = TestClock()
      let store = Store(initialState: Holder.State()) { Holder(clock: clock) }
      store.send(.setMode(.editing(1)))
      let load = store.send(.mode(.load))
      store.send(.setMode(.viewing(1)))
      await clock.run()
      await load.finish()
      #expect(store.modeLoads == [])
      #expect(store.runningEffectCount == 0)
    }

    @Test func anIfLetEnumChildThatKeepsItsCaseKeepsItsEffects() async {
      let clock = TestClock()
      let store = Store(initialState: Holder.State()) { Holder(clock: clock) }
      store.send(.setMode(.editing(1)))
      let load = store.send(.mode(.load))
      store.send(.setMode(.editing(2)))
      await clock.advance(by: .seconds(1))
      await load.finish()
      #expect(store.modeLoads == [1])
    }

    @Test func aChildsQueuedSendNeverReachesTheChildThatReplacedItInTheSameBatch() async {
      struct Feature: Reducer {
        struct State: Equatable { var child: Pinger.State? = Pinger.State(id: 1) }
        enum Action: Equatable {
          case child(Pinger.Action)
          static let childCase = casePath(Action.child) {
            if case .child(let action) = $0 { action } else { nil }
          }
        }
        var body: some Reducer<State, Action> {
          Reduce { state, action in
            // The parent replaces the child in the action that made it send `.pong`.
            if action == .child(.ping) { state.child = Pinger.State(id: 2) }
            return .none
          }
          .ifLet(\.child, action: Action.childCase) { Pinger(clock: TestClock()) }
        }
      }
      let store = Store(initialState: Feature.State()) { Feature() }
      store.send(.child(.ping))
      #expect(store.child == Pinger.State(id: 2, pongs: 0))
      // A child with the same id is the same instance: its `.pong` reaches it.
      store.send(.child(.ping))
      #expect(store.child == Pinger.State(id: 2, pongs: 1))
    }

    @Test func aChildWithoutIdentityThatLeavesAndComesBackIsANewInstanceForItsQueuedSends() {
      struct Echo: Reducer {
        struct State: Equatable { var pongs = 0 }
        enum Action: Equatable { case ping, pong }
        func reduce(into state: inout State, action: Action) -> Effect<Action> {
          switch action {
          case .ping: return .send(.pong)
          case .pong:
            state.pongs += 1
            return .none
          }
        }
      }
      struct Feature: Reducer {
        struct State: Equatable { var child: Echo.State? = Echo.State() }
        enum Action: Equatable {
          case child(Echo.Action)
          case hide, show, pingThenReopen
          static let childCase = casePath(Action.child) {
            if case .child(let action) = $0 { action } else { nil }
          }
        }
        var body: some Reducer<State, Action> {
          Reduce { state, action in
            switch action {
            case .hide: state.child = nil
            case .show: state.child = Echo.State()
            case .pingThenReopen:
              // The child's `.pong` is queued behind `.hide` and `.show`.
              return .merge(.send(.child(.ping)), .send(.hide), .send(.show))
            case .child: break
            }
            return .none
          }
          .ifLet(\.child, action: Action.childCase) { Echo() }
        }
      }
      let store = Store(initialState: Feature.State()) { Feature() }
      store.send(.child(.ping))
      #expect(store.child == Echo.State(pongs: 1))
      store.send(.pingThenReopen)
      #expect(store.child == Echo.State(pongs: 0))
    }

    @Test func aChildWithoutIdentityDismissedAndShownAgainIsANewInstanceForItsEffects() async {
      struct Loader: Reducer {
        struct State: Equatable { var loaded = false }
        enum Action: Equatable { case load, loaded }
        let clock: TestClock<Duration>
        func reduce(into state: inout State, action: Action) -> Effect<Action> {
          switch action {
          case .load:
            return .run { [clock] send in
              try await clock.sleep(for: .seconds(1))
              await send(.loaded)
            }
          case .loaded:
            state.loaded = true
            return .none
          }
        }
      }
      struct Feature: Reducer {
        struct State: Equatable { var child: Loader.State? }
        enum Action: Equatable {
          case child(Loader.Action)
          case hide, show
          static let childCase = casePath(Action.child) {
            if case .child(let action) = $0 { action } else { nil }
          }
        }
        let clock: TestClock<Duration>
        var body: some Reducer<State, Action> {
          Reduce { state, action in
            switch action {
            case .hide: state.child = nil
            case .show: state.child = Loader.State()
            case .child: break
            }
            return .none
          }
          .ifLet(\.child, action: Action.childCase) { Loader(clock: clock) }
        }
      }
      let clock = TestClock()
      let store = Store(initialState: Feature.State()) { Feature(clock: clock) }
      store.send(.show)
      let load = store.send(.child(.load))
      store.send(.hide)
      store.send(.show)
      await clock.run()
      await load.finish()
      #expect(store.child == Loader.State(loaded: false))
    }

    // MARK: - Removed by an ancestor (issue 14, item 7)

    @Test func rowsRemovedByAGrandparentLoseTheirEffects() async {
      let clock = TestClock()
      var initial = Ancestor.State()
      initial.holder.rows = [Pinger.State(id: 1), Pinger.State(id: 2)]
      let store = Store(initialState: initial) { Ancestor(clock: clock) }
      let first = store.send(.holder(.rows(.element(id: 1, action: .load))))
      let second = store.send(.holder(.rows(.element(id: 2, action: .load))))
      #expect(store.runningEffectCount == 2)
      store.send(.clearRows)
      // The late `loaded` actions would be reported as actions for missing rows.
      await clock.run()
      await first.finish()
      await second.finish()
      #expect(store.holder.rows.isEmpty)
      #expect(store.runningEffectCount == 0)
    }

    @Test func anIfLetChildDismissedByAGrandparentLosesItsEffects() async {
      let clock = TestClock()
      let store = Store(initialState: Ancestor.State()) { Ancestor(clock: clock) }
      store.send(.holder(.show(1)))
      let load = store.send(.holder(.child(.load)))
      store.send(.dismissChild)
      // The late `loaded` action would be reported as an action for a nil child.
      await clock.run()
      await load.finish()
      #expect(store.holder.child == nil)
      #expect(store.runningEffectCount == 0)
    }

    @Test func anIfLetChildReplacedByAGrandparentLosesItsEffects() async {
      let clock = TestClock()
      let store = Store(initialState: Ancestor.State()) { Ancestor(clock: clock) }
      store.send(.holder(.show(1)))
      let load = store.send(.holder(.child(.load)))
      store.send(.replaceChild(2))
      await clock.run()
      await load.finish()
      #expect(store.holder.child == Pinger.State(id: 2))
    }

    @Test func dismissingAChildCancelsTheEffectsOfItsOwnChildrenAndRows() async {
      let clock = TestClock()
      var holder = Holder.State()
      holder.rows = [Pinger.State(id: 1)]
      holder.child = Pinger.State(id: 5)
      let store = Store(initialState: Ancestor.State(optionalHolder: holder)) {
        Ancestor(clock: clock)
      }
      let row = store.send(.optionalHolder(.rows(.element(id: 1, action: .load))))
      let child = store.send(.optionalHolder(.child(.load)))
      #expect(store.runningEffectCount == 2)
      store.send(.dismissHolder)
      await clock.run()
      await row.finish()
      await child.finish()
      #expect(store.optionalHolder == nil)
      #expect(store.runningEffectCount == 0)
    }

    @Test func aRowRemovedByAGrandparentLeavesTheOtherRowsEffectsRunning() async {
      let clock = TestClock()
      var initial = Ancestor.State()
      initial.holder.rows = [Pinger.State(id: 1), Pinger.State(id: 2)]
      let store = Store(initialState: initial) { Ancestor(clock: clock) }
      let removed = store.send(.holder(.rows(.element(id: 1, action: .load))))
      let kept = store.send(.holder(.rows(.element(id: 2, action: .load))))
      store.send(.removeRow(1))
      store.send(.holder(.rows(.element(id: 2, action: .ping))))
      await clock.advance(by: .seconds(1))
      await removed.finish()
      await kept.finish()
      #expect(store.holder.rows[id: 2]?.loaded == 2)
      #expect(store.holder.rows[id: 2]?.pongs == 1)
    }
  }
}

extension Engine.ChildIdentityTests {
  @Test func aTestStoreSeesNoLateActionFromRowsAGrandparentCleared() async {
    let clock = TestClock()
    var initial = Ancestor.State()
    initial.holder.rows = [Pinger.State(id: 1)]
    let store = TestStore(initialState: initial) { Ancestor(clock: clock) }
    await store.send(.holder(.rows(.element(id: 1, action: .load))))
    await store.send(.clearRows) { $0.holder.rows = [] }
    await clock.run()
    await store.finish()
  }

  @Test func aTestStoreSeesNoLateActionFromAReplacedChild() async {
    let clock = TestClock()
    let store = TestStore(initialState: Holder.State()) { Holder(clock: clock) }
    await store.send(.show(1)) { $0.child = Pinger.State(id: 1) }
    await store.send(.child(.load))
    await store.send(.show(2)) { $0.child = Pinger.State(id: 2) }
    await clock.run()
    await store.finish()
  }
}
