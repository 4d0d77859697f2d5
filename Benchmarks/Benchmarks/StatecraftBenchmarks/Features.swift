import CasePathsCore
import IdentifiedCollections
import Statecraft

// The features the scenarios run. They use only the public API of Statecraft, and no macros
// (case paths are built by hand with `AnyCasePath`).

// MARK: - Counter (B1, B3, B4, B7, B8)

struct Counter: Reducer {
  struct State: Equatable, Sendable {
    var count = 0
  }

  enum Action: Equatable, Sendable {
    case increment
    case roundTrip
    case roundTripDone
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .roundTrip:
      return .run { send in await send(.roundTripDone) }
    case .roundTripDone:
      state.count += 1
      return .none
    }
  }
}

// MARK: - Rows (B2, B5)

struct Row: Reducer {
  struct State: Equatable, Identifiable, Sendable {
    let id: Int
    var title: String
    var isOn = false
  }

  enum Action: Equatable, Sendable {
    case toggle
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .toggle:
      state.isOn.toggle()
      return .none
    }
  }
}

struct Rows: Reducer {
  struct State: Equatable, Sendable {
    var rows: IdentifiedArrayOf<Row.State>

    init(count: Int) {
      rows = IdentifiedArray(
        uniqueElements: (0..<count).map { Row.State(id: $0, title: "Row \($0)") })
    }
  }

  enum Action: Equatable, Sendable {
    case rows(IdentifiedActionOf<Row>)
    case clear
  }

  static let toRows = AnyCasePath<Action, IdentifiedActionOf<Row>>(
    embed: Action.rows,
    extract: { action in
      guard case .rows(let rowAction) = action else { return nil }
      return rowAction
    }
  )

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .rows:
        return .none
      case .clear:
        state.rows.removeAll()
        return .none
      }
    }
    .forEach(\.rows, action: Self.toRows) { Row() }
  }

  static func toggle(_ id: Int) -> Action {
    .rows(.element(id: id, action: .toggle))
  }
}

// MARK: - Nesting (B4)

/// A feature whose only job is to hold a child feature: `Wrap<Wrap<Counter>>` is a counter two
/// `Scope`s deep.
///
/// The `Scope` is built once and stored. (A `body` would rebuild it for every action, and for a
/// generic type like this one `\.child` is a key path instantiated at run time: that costs
/// allocations per level per action that a concrete feature's static key path does not.)
struct Wrap<Child: Reducer & SendableMetatype>: Reducer where Child.Action: Sendable {
  struct State {
    var child: Child.State
  }

  enum Action: Sendable {
    case child(Child.Action)
    case reset
  }

  let scope: Scope<State, Action, Child>

  init(wrapped: Child) {
    scope = Scope(
      state: \.child,
      action: AnyCasePath(
        embed: Action.child,
        extract: { action in
          guard case .child(let childAction) = action else { return nil }
          return childAction
        }
      )
    ) {
      wrapped
    }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    scope.reduce(into: &state, action: action)
  }
}

/// A counter nested in `Wrap`s: builds the reducer, the state, the root action for a counter
/// action, and the child store scoped down to the counter.
protocol NestedCounter: Reducer where Action: Sendable {
  static func make() -> Self
  static func initialState() -> State
  static func embed(_ action: Counter.Action) -> Action
  @MainActor static func counterStore(in store: Store<State, Action>) -> StoreOf<Counter>
}

extension Counter: NestedCounter {
  static func make() -> Self { Counter() }
  static func initialState() -> State { State() }
  static func embed(_ action: Action) -> Action { action }
  @MainActor static func counterStore(in store: StoreOf<Counter>) -> StoreOf<Counter> { store }
}

extension Wrap: NestedCounter where Child: NestedCounter {
  static func make() -> Self { Wrap(wrapped: Child.make()) }
  static func initialState() -> State { State(child: Child.initialState()) }
  static func embed(_ action: Counter.Action) -> Action { .child(Child.embed(action)) }
  @MainActor static func counterStore(in store: Store<State, Action>) -> StoreOf<Counter> {
    Child.counterStore(in: store.scope(state: \.child, action: Action.child))
  }
}

typealias Depth1 = Wrap<Counter>
typealias Depth5 = Wrap<Wrap<Wrap<Wrap<Wrap<Counter>>>>>
typealias Depth10 = Wrap<Wrap<Wrap<Wrap<Wrap<Depth5>>>>>

// MARK: - A counter scoped in a body (B8 body scope)

/// A feature that scopes a counter in its `body`, as most features are written: its `Scope` is
/// built anew for every action (unlike `Wrap`'s, built once).
struct CounterHost: Reducer {
  struct State {
    var counter = Counter.State()
  }

  enum Action: Sendable {
    case counter(Counter.Action)
  }

  static let toCounter = AnyCasePath<Action, Counter.Action>(
    embed: Action.counter,
    extract: { action in
      guard case .counter(let counterAction) = action else { return nil }
      return counterAction
    }
  )

  var body: some Reducer<State, Action> {
    Scope(state: \.counter, action: Self.toCounter) { Counter() }
  }
}

// MARK: - The counter as a Reactor and as a Feedback system (B6)

struct CounterReactor: Reactor {
  typealias State = Counter.State

  enum Action: Equatable, Sendable {
    case increment
  }

  func reduce(state: inout State, mutation: Action) {
    switch mutation {
    case .increment: state.count += 1
    }
  }
}

struct CounterSystem: FeedbackSystem {
  typealias State = Counter.State

  enum Event: Equatable, Sendable {
    case increment
  }

  func reduce(into state: inout State, event: Event) {
    switch event {
    case .increment: state.count += 1
    }
  }

  var feedbacks: [Feedback<State, Event>] { [] }
}

// MARK: - Busy rows (B11)

/// A row that can start an effect that runs until it is cancelled (a timer or a load in flight).
struct BusyRow: Reducer {
  struct State: Equatable, Identifiable, Sendable {
    let id: Int
    var isOn = false
  }

  enum Action: Equatable, Sendable {
    case start
    case toggle
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { _ in try await Task.sleep(for: .seconds(86_400)) }
    case .toggle:
      state.isOn.toggle()
      return .none
    }
  }
}

struct BusyRows: Reducer {
  struct State: Equatable, Sendable {
    var rows: IdentifiedArrayOf<BusyRow.State>

    init(count: Int) {
      rows = IdentifiedArray(uniqueElements: (0..<count).map { BusyRow.State(id: $0) })
    }
  }

  enum Action: Equatable, Sendable {
    case rows(IdentifiedActionOf<BusyRow>)
  }

  static let toRows = AnyCasePath<Action, IdentifiedActionOf<BusyRow>>(
    embed: Action.rows,
    extract: { action in
      guard case .rows(let rowAction) = action else { return nil }
      return rowAction
    }
  )

  var body: some Reducer<State, Action> {
    EmptyReducer()
      .forEach(\.rows, action: Self.toRows) { BusyRow() }
  }

  static func send(_ action: BusyRow.Action, to id: Int) -> Action {
    .rows(.element(id: id, action: action))
  }
}
