import CasePathsCore
import Clocks
import ConcurrencyExtras
import IdentifiedCollections
import Statecraft

/// `AnyCasePath(embed:extract:)` spelled shorter for test enums.
func casePath<Root, Value>(
  _ embed: @escaping @Sendable (Value) -> Root,
  _ extract: @escaping @Sendable (Root) -> Value?
) -> AnyCasePath<Root, Value> {
  AnyCasePath(embed: embed, extract: extract)
}

/// A counter with a text field and a computed property: the observation fixture.
struct Counter: Reducer {
  struct State: Equatable, Sendable {
    var count = 0
    var text = ""
    var isEven: Bool { count.isMultiple(of: 2) }
  }

  enum Action: Equatable, Sendable {
    case increment
    case decrement
    case setCount(Int)
    case setText(String)
    case incrementThrice
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .decrement:
      state.count -= 1
      return .none
    case .setCount(let count):
      state.count = count
      return .none
    case .setText(let text):
      state.text = text
      return .none
    case .incrementThrice:
      return .merge(.send(.increment), .send(.increment), .send(.increment))
    }
  }
}

/// Records every action a reducer saw, in order.
struct Logging<State, Action: Sendable>: Reducer {
  let log: LockIsolated<[Action]>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    log.withValue { $0.append(action) }
    return .none
  }
}

/// A row of a list: its `load` effect uses one cancellation id for every row.
struct Row: Reducer {
  struct State: Equatable, Identifiable, Sendable {
    let id: Int
    var value = 0
  }

  enum Action: Equatable, Sendable {
    case load
    case loaded(Int)
    case toggle
  }

  enum CancelID { case load }

  let clock: TestClock<Duration>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .load:
      let id = state.id
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        await send(.loaded(id * 10))
      }
      .cancellable(id: CancelID.load, cancelInFlight: true)
    case .loaded(let value):
      state.value = value
      return .none
    case .toggle:
      state.value = state.value == 0 ? 1 : 0
      return .none
    }
  }
}

/// A list of rows with an optional detail row.
struct List: Reducer {
  struct State: Equatable, Sendable {
    var rows: IdentifiedArrayOf<Row.State> = []
    var detail: Row.State?
  }

  enum Action: Equatable, Sendable {
    case rows(IdentifiedActionOf<Row>)
    case detail(Row.Action)
    case addRow(Int)
    case removeRow(Int)
    case showDetail(Int)
    case hideDetail

    static let rowsCase = casePath(Action.rows) {
      if case .rows(let action) = $0 { action } else { nil }
    }
    static let detailCase = casePath(Action.detail) {
      if case .detail(let action) = $0 { action } else { nil }
    }
  }

  let clock: TestClock<Duration>

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .addRow(let id):
        state.rows.append(Row.State(id: id))
        return .none
      case .removeRow(let id):
        state.rows.remove(id: id)
        return .none
      case .showDetail(let id):
        state.detail = Row.State(id: id)
        return .none
      case .hideDetail:
        state.detail = nil
        return .none
      case .rows, .detail:
        return .none
      }
    }
    .forEach(\.rows, action: Action.rowsCase) { Row(clock: clock) }
    .ifLet(\.detail, action: Action.detailCase) { Row(clock: clock) }
  }
}
