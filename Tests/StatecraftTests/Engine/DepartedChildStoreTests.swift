import CasePathsCore
import IdentifiedCollections
import Testing

@testable import Statecraft

/// A parent with every kind of child that can leave its state: an optional child, a
/// presentation, an enum case, rows and a stack. `arrive` brings one of each, `leave` takes them
/// all away.
struct Nursery: Reducer {
  struct Child: Equatable, Sendable, Identifiable {
    let id: Int
    var count = 0
  }

  enum Mode: Equatable, Sendable {
    case idle
    case editing(Child)

    var editing: Child? {
      if case .editing(let child) = self { child } else { nil }
    }
  }

  struct State: Equatable, Sendable {
    var child: Child?
    @Presents var sheet: Child?
    var mode = Mode.idle
    var rows: IdentifiedArrayOf<Child> = []
    var path = StackState<Child>()
  }

  enum ChildAction: Equatable, Sendable {
    case tap
  }

  enum Action: Sendable {
    case child(ChildAction)
    case sheet(PresentationAction<ChildAction>)
    case mode(ChildAction)
    case rows(IdentifiedAction<Int, ChildAction>)
    case path(StackAction<Child, ChildAction>)
    case arrive(Int)
    case count(Int)
    case leave

    static let sheetCase = AnyCasePath<Action, PresentationAction<ChildAction>>(
      embed: Action.sheet, extract: { if case .sheet(let action) = $0 { action } else { nil } })
    static let pathCase = AnyCasePath<Action, StackAction<Child, ChildAction>>(
      embed: Action.path, extract: { if case .path(let action) = $0 { action } else { nil } })
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .arrive(let id):
      state.child = Child(id: id)
      state.sheet = Child(id: id)
      state.mode = .editing(Child(id: id))
      state.rows.append(Child(id: id))
      state.path.append(Child(id: id))
    case .count(let count):
      state.child?.count = count
      state.sheet?.count = count
      if case .editing(var child) = state.mode {
        child.count = count
        state.mode = .editing(child)
      }
      for id in state.rows.ids { state.rows[id: id]?.count = count }
      for id in state.path.ids { state.path[id: id]?.count = count }
    case .leave:
      state.child = nil
      state.sheet = nil
      state.mode = .idle
      state.rows.removeAll()
      state.path.removeAll()
    case .child, .sheet, .mode, .rows, .path:
      break
    }
    return .none
  }
}

extension Engine {
  /// A parent lets go of the store of a child instance that has left its state, whatever kind of
  /// child it is: only what holds it from outside keeps it, and it shows the child's last state.
  @MainActor
  @Suite struct DepartedChildStoreTests {
    typealias ChildStore = Store<Nursery.Child, Nursery.ChildAction>

    /// The kinds of child store.
    enum Kind: String, CaseIterable, Sendable {
      case optional, presentation, enumCase, rowByID, rowByKeyPath, stackElement, closure

      /// The store of this kind of the child that arrived with `id`.
      @MainActor
      func scope(_ store: StoreOf<Nursery>, _ id: Int) -> ChildStore? {
        switch self {
        case .optional:
          return store.scope(state: \.child, action: Nursery.Action.child)
        case .presentation:
          return store.scope(state: \.$sheet, action: Nursery.Action.sheetCase)
        case .enumCase:
          return store.scope(state: \.mode.editing, action: Nursery.Action.mode)
        case .rowByID:
          return store.scope(state: \.rows, id: id, action: Nursery.Action.rows)
        case .rowByKeyPath:
          return store.scope(
            state: \.rows[id: id], action: { .rows(.element(id: id, action: $0)) })
        case .stackElement:
          guard let element = store.path.ids.last else { return nil }
          return store.scope(state: \.path, id: element, action: Nursery.Action.pathCase)
        case .closure:
          guard let child = store.withState(\.child) else { return nil }
          return store.scope(state: { $0.child ?? child }, action: Nursery.Action.child)
        }
      }
    }

    /// How many children arrive and leave in each test.
    static let cycles = 10_000

    @Test(arguments: Kind.allCases)
    func theStoreOfAChildThatLeftIsReleasedOnceNothingElseHoldsIt(kind: Kind) {
      let store = Store(initialState: Nursery.State()) { Nursery() }
      var alive = 0
      for id in 0..<Self.cycles {
        store.send(.arrive(id))
        weak var child: ChildStore?
        do {
          // Held, as a view being dismissed holds it, while its child leaves.
          let held = kind.scope(store, id)
          child = held
          #expect(held?.id == id)
          store.send(.leave)
          withExtendedLifetime(held) {}
        }
        if child != nil { alive += 1 }
      }
      #expect(alive == 0, "\(alive) of \(Self.cycles) departed child stores are alive")
    }

    @Test(arguments: Kind.allCases)
    func aHeldStoreOfAChildThatLeftShowsItsLastStateAndIsReleasedWithItsHolder(kind: Kind) {
      let store = Store(initialState: Nursery.State()) { Nursery() }
      store.send(.arrive(0))
      var held = kind.scope(store, 0)
      weak let child = held
      store.send(.count(5))
      store.send(.leave)
      #expect(held?.id == 0)
      // NB: a closure scope shows what its closure computes from the parent's state.
      if kind != .closure { #expect(held?.count == 5) }
      for id in 1..<100 {
        store.send(.arrive(id))
        #expect(kind.scope(store, id)?.id == id)
        store.send(.count(id))
        store.send(.leave)
      }
      // NB: an optional scope reads through to the next value of its optional (as before the
      // parent let go of it); the other kinds are tied to their child instance.
      if [.presentation, .rowByID, .rowByKeyPath, .stackElement].contains(kind) {
        #expect(held?.id == 0)
        #expect(held?.count == 5)
      }
      held = nil
      #expect(child == nil)
    }

    @Test(arguments: Kind.allCases)
    func aChildThatComesBackWithTheSameIDIsReadByItsStore(kind: Kind) {
      let store = Store(initialState: Nursery.State()) { Nursery() }
      store.send(.arrive(1))
      let first = kind.scope(store, 1)
      store.send(.leave)
      store.send(.arrive(1))
      store.send(.count(3))
      #expect(kind.scope(store, 1)?.count == 3)
      #expect(first?.id == 1)
    }
  }
}
