import CasePathsCore
import Clocks
import Statecraft

/// A presented screen: a ticking timer, a draft, and ways to close itself.
struct Ticker: Reducer {
  struct State: Equatable, Sendable {
    var ticks = 0
    var draft = ""
  }

  enum Action: Equatable, Sendable, CasePathable {
    case startTimer
    case tickLater
    case tick
    case tickSoon
    case closeTapped
    case saveTapped
    case saveAfter(Gate)
    case edit(String)

    struct AllCasePaths {
      var tick: AnyCasePath<Action, Void> {
        AnyCasePath(embed: { .tick }, extract: { if case .tick = $0 { () } else { nil } })
      }
      var edit: AnyCasePath<Action, String> {
        AnyCasePath(embed: Action.edit) { if case .edit(let text) = $0 { text } else { nil } }
      }
      var closeTapped: AnyCasePath<Action, Void> {
        AnyCasePath(
          embed: { .closeTapped }, extract: { if case .closeTapped = $0 { () } else { nil } })
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  let clock: TestClock<Duration>
  let dismiss = DismissEffect()

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .startTimer:
      return .run { send in
        for await _ in clock.timer(interval: .seconds(1)) { await send(.tick) }
      }
    case .tickLater:
      return .run { send in
        try await clock.sleep(for: .seconds(1))
        await send(.tick)
      }
    case .tick:
      state.ticks += 1
      return .none
    case .tickSoon:
      return .send(.tick)
    case .closeTapped:
      return .dismiss()
    case .saveTapped:
      return .run { _ in await dismiss() }
    case .saveAfter(let gate):
      return .run { _ in
        await gate.wait()
        await dismiss()
      }
    case .edit(let text):
      state.draft = text
      return .none
    }
  }
}

extension Gate: Equatable {
  static func == (lhs: Gate, rhs: Gate) -> Bool { lhs === rhs }
}

/// A screen that presents a ticker as a sheet, an alert, and either of two destinations.
struct Presenter: Reducer {
  struct State: Equatable, Sendable {
    @Presents var sheet: Ticker.State?
    @Presents var alert: AlertState<Action.Alert>?
    @Presents var destination: Destination.State?
    var deleted = 0
  }

  enum Action: Equatable, Sendable, CasePathable {
    case sheet(PresentationAction<Ticker.Action>)
    case alert(PresentationAction<Alert>)
    case destination(PresentationAction<Destination.Action>)
    case showSheet
    case showAlert
    case showDestination(Destination.State)
    case replaceSheetWhenClosed

    enum Alert: Equatable, Sendable {
      case confirmDelete
      case deleteAndAskAgain
    }

    struct AllCasePaths {
      var sheet: AnyCasePath<Action, PresentationAction<Ticker.Action>> {
        AnyCasePath(embed: Action.sheet) { if case .sheet(let a) = $0 { a } else { nil } }
      }
      var alert: AnyCasePath<Action, PresentationAction<Alert>> {
        AnyCasePath(embed: Action.alert) { if case .alert(let a) = $0 { a } else { nil } }
      }
      var destination: AnyCasePath<Action, PresentationAction<Destination.Action>> {
        AnyCasePath(embed: Action.destination) {
          if case .destination(let a) = $0 { a } else { nil }
        }
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  /// One of two children, matched by case key paths (`CasePathable` as the macro writes it).
  struct Destination: Reducer {
    enum State: Equatable, Sendable, CasePathable {
      case first(Ticker.State)
      case second(Ticker.State)

      struct AllCasePaths {
        var first: AnyCasePath<State, Ticker.State> {
          AnyCasePath(embed: State.first) { if case .first(let s) = $0 { s } else { nil } }
        }
        var second: AnyCasePath<State, Ticker.State> {
          AnyCasePath(embed: State.second) { if case .second(let s) = $0 { s } else { nil } }
        }
      }
      static var allCasePaths: AllCasePaths { AllCasePaths() }
    }

    enum Action: Equatable, Sendable, CasePathable {
      case first(Ticker.Action)
      case second(Ticker.Action)

      struct AllCasePaths {
        var first: AnyCasePath<Action, Ticker.Action> {
          AnyCasePath(embed: Action.first) { if case .first(let a) = $0 { a } else { nil } }
        }
        var second: AnyCasePath<Action, Ticker.Action> {
          AnyCasePath(embed: Action.second) { if case .second(let a) = $0 { a } else { nil } }
        }
      }
      static var allCasePaths: AllCasePaths { AllCasePaths() }
    }

    let clock: TestClock<Duration>

    var body: some Reducer<State, Action> {
      Scope(state: \.first, action: \.first) { Ticker(clock: clock) }
      Scope(state: \.second, action: \.second) { Ticker(clock: clock) }
    }
  }

  let clock: TestClock<Duration>

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .showSheet:
        state.sheet = Ticker.State()
      case .showAlert:
        state.alert = Self.deleteAlert
      case .showDestination(let destination):
        state.destination = destination
      case .sheet(.presented(.closeTapped)) where state.sheet != nil:
        break
      case .replaceSheetWhenClosed:
        break
      case .alert(.presented(.confirmDelete)):
        state.deleted += 1
      case .alert(.presented(.deleteAndAskAgain)):
        state.deleted += 1
        state.alert = Self.deleteAlert
      case .sheet, .alert, .destination:
        break
      }
      return .none
    }
    .ifLet(\.$sheet, action: \.sheet) { Ticker(clock: clock) }
    .ifLet(\.$alert, action: \.alert)
    .ifLet(\.$destination, action: \.destination) { Destination(clock: clock) }
  }

  static let deleteAlert = AlertState<Action.Alert>(
    title: "Delete?", message: "This cannot be undone.",
    buttons: [
      ButtonState(role: .destructive, action: .confirmDelete, label: "Delete"),
      ButtonState(role: .cancel, label: "Cancel"),
    ])
}

/// The same screen with hand-written case paths (`AnyCasePath`), no `CasePathable`.
struct PlainPresenter: Reducer {
  struct State: Equatable, Sendable {
    @Presents var destination: Destination?
  }

  enum Destination: Equatable, Sendable {
    case first(Ticker.State)
    case second(Ticker.State)

    static let firstCase = AnyCasePath<Destination, Ticker.State>(embed: Destination.first) {
      if case .first(let s) = $0 { s } else { nil }
    }
    static let secondCase = AnyCasePath<Destination, Ticker.State>(embed: Destination.second) {
      if case .second(let s) = $0 { s } else { nil }
    }
  }

  enum DestinationAction: Equatable, Sendable {
    case first(Ticker.Action)
    case second(Ticker.Action)

    static let firstCase = AnyCasePath<DestinationAction, Ticker.Action>(
      embed: DestinationAction.first
    ) { if case .first(let a) = $0 { a } else { nil } }
    static let secondCase = AnyCasePath<DestinationAction, Ticker.Action>(
      embed: DestinationAction.second
    ) { if case .second(let a) = $0 { a } else { nil } }
  }

  enum Action: Equatable, Sendable {
    case destination(PresentationAction<DestinationAction>)
    case show(Destination)

    static let destinationCase = AnyCasePath<Action, PresentationAction<DestinationAction>>(
      embed: Action.destination
    ) { if case .destination(let a) = $0 { a } else { nil } }
  }

  let clock: TestClock<Duration>

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .show(let destination) = action { state.destination = destination }
      return .none
    }
    .ifLet(\.$destination, action: Action.destinationCase) {
      Scope(state: Destination.firstCase, action: DestinationAction.firstCase) {
        Ticker(clock: clock)
      }
      Scope(state: Destination.secondCase, action: DestinationAction.secondCase) {
        Ticker(clock: clock)
      }
    }
  }
}

/// A drill-down: a stack of tickers over a root.
struct Drill: Reducer {
  struct State: Equatable, Sendable {
    var path = StackState<Ticker.State>()
  }

  enum Action: Equatable, Sendable, CasePathable {
    case path(StackActionOf<Ticker>)
    case push
    case popAll
    case rebuild

    struct AllCasePaths {
      var path: AnyCasePath<Action, StackActionOf<Ticker>> {
        AnyCasePath(embed: Action.path) { if case .path(let a) = $0 { a } else { nil } }
      }
      var push: AnyCasePath<Action, Void> {
        AnyCasePath(embed: { .push }, extract: { if case .push = $0 { () } else { nil } })
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  let clock: TestClock<Duration>

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .push: state.path.append(Ticker.State())
      case .popAll: state.path.removeAll()
      case .rebuild: state.path = StackState(Array(state.path))
      case .path: break
      }
      return .none
    }
    .forEach(\.path, action: \.path) { Ticker(clock: clock) }
  }
}
