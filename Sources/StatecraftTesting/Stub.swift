import Statecraft

/// A reactor's store in stub mode, for testing a view in isolation (ReactorKit's `Stub`), and a
/// way to run one action through the real reactor (AsyncReactorKit's `Stub`).
///
/// ```swift
/// let stub = Stub(reactor: CounterReactor(), initialState: CounterReactor.State())
/// let view = CounterView(store: stub.store)
///
/// view.tapIncrease()
/// #expect(stub.actions == [.increase])   // recorded, the reactor did not run
///
/// stub.state.count = 42                  // forced; the view observes it
/// #expect(view.label == "42")
///
/// let next = await stub.test(input: .increase)   // runs the real reactor from the stub's state
/// #expect(next.count == 43)
/// ```
@MainActor
public final class Stub<R: Reactor> {
  /// The store to give the view: its actions are recorded, its state is what the test sets.
  public let store: ReactorStoreOf<R>
  /// Every action sent to ``store``, in order.
  public private(set) var actions: [R.Action] = []
  private let reactor: R
  private let setState: (R.State) -> Void

  /// A stub of `reactor` starting at `initialState`.
  public init(reactor: R, initialState: R.State) {
    self.reactor = reactor
    var record: (R.Action) -> Void = { _ in }
    let root = RootCore<R.State, StubEvent<R.State, R.Action>>(initialState: initialState) {
      state, event in
      switch event {
      case .action(let action): record(action)
      case .setState(let newState): state = newState
      }
      return .none
    }
    self.store = Store(events: root, embed: { .action($0) })
    self.setState = { _ = root.send(.setState($0), group: nil) }
    record = { [unowned self] in self.actions.append($0) }
  }

  /// The state the stub's store shows; setting it notifies the store's observers.
  public var state: R.State {
    get { store.withState { $0 } }
    set { setState(newValue) }
  }

  /// Runs `input` through the real reactor, from the stub's current state, waits for all the
  /// work it started, and returns the resulting state. The stub's own state is unchanged.
  public func test(input: R.Action) async -> R.State {
    let store = Store(initialState: state, reactor: reactor)
    await store.send(input).finish()
    return store.withState { $0 }
  }
}

extension Stub where R: ReactorWithInitialState {
  /// A stub of `reactor` starting at the initial state the reactor declares (AsyncReactorKit's
  /// `Stub(reactor:)`).
  ///
  /// ```swift
  /// let stub = Stub(reactor: CounterReactor())
  /// let next = await stub.test(input: .increment)
  /// ```
  public convenience init(reactor: R) {
    self.init(reactor: reactor, initialState: reactor.initialState())
  }
}

enum StubEvent<State, Action> {
  case action(Action)
  case setState(State)
}
