/// A reactor that declares the state its store starts from, as AsyncReactorKit's reactors do:
/// `Store(reactor:)`, `Stub(reactor:)` and `TestStore(reactor:)` then need no `initialState:`.
///
/// ```swift
/// final class CounterReactor: ReactorWithInitialState {
///   enum Action { case increment }
///   struct State: Equatable { var count = 0 }
///
///   func initialState() -> State { State() }
///
///   func reduce(state: inout State, mutation: Action) {
///     state.count += 1
///   }
/// }
///
/// let store = Store(reactor: CounterReactor())
/// ```
///
/// The store still owns the state: `initialState()` is called once, when the store is created.
/// `Store(initialState:reactor:)` remains available to start from another state.
public protocol ReactorWithInitialState: Reactor {
  /// The state a store of this reactor starts from.
  func initialState() -> State
}
