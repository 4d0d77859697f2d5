/// A feature in the Reactor idiom (ReactorKit, GoodReactor, AsyncReactor): actions become
/// mutations, and mutations change the state.
///
/// ```swift
/// final class CounterReactor: Reactor {
///   enum Action { case increase, decrease, loadFact }
///   enum Mutation { case setCount(Int), setFact(String?), setLoading(Bool) }
///   struct State: Equatable { var count = 0; var fact: String?; var isLoading = false }
///
///   func mutate(state: State, action: Action) -> Effect<Mutation> {
///     switch action {
///     case .increase: return .send(.setCount(state.count + 1))
///     case .decrease: return .send(.setCount(state.count - 1))
///     case .loadFact:
///       return .concatenate(
///         .send(.setLoading(true)),
///         .run { [count = state.count] send in await send(.setFact(await facts.fact(count))) },
///         .send(.setLoading(false))
///       )
///     }
///   }
///
///   func reduce(state: inout State, mutation: Mutation) {
///     switch mutation {
///     case .setCount(let count): state.count = count
///     case .setFact(let fact): state.fact = fact
///     case .setLoading(let isLoading): state.isLoading = isLoading
///     }
///   }
/// }
///
/// let store = Store(initialState: CounterReactor.State(), reactor: CounterReactor())
/// store.send(.increase)
/// ```
///
/// A reactor runs on the same engine as a ``Reducer``: the store reduces every action on the
/// main actor, one at a time, so concurrent sends never lose an update, and each store owns its
/// state (a new reactor never sees another's). `mutate` receives the current state instead of
/// reading a shared `currentState`.
///
/// Optional hooks, all with defaults:
/// - `transform(action:)`: rewrite, filter or delay each incoming action.
/// - `transform(mutation:)`: rewrite the mutations of every `mutate` effect.
/// - `transform(state:)`: adjust the state after every mutation (derived fields), as
///   ReactorKit's and GoodReactor's `transform(state:)` map the state stream.
/// - `subscriptions()`: long-running mutations from outside (a service's event stream),
///   started with the store and cancelled with it — ReactorKit's
///   `transform(mutation:) { .merge(mutation, service.events) }`.
/// - `route(for:)`: a destination for a coordinator (GoodReactor's `navigate`), delivered
///   through ``Store/routes(_:fileID:filePath:line:column:)``.
public protocol Reactor {
  /// What the user or the system does.
  associatedtype Action
  /// A change to the state; an action by default.
  associatedtype Mutation = Action
  /// What the reactor shows.
  associatedtype State
  /// A destination for a coordinator; `Never` if the reactor doesn't navigate.
  associatedtype Route: Sendable = Never

  /// The mutations an action causes: `.send(mutation)` for an immediate one, `.run` for async
  /// work, `.concatenate` for a sequence.
  func mutate(state: State, action: Action) -> Effect<Mutation>

  /// Applies a mutation to the state.
  func reduce(state: inout State, mutation: Mutation)

  /// Rewrites each incoming action before `mutate`: return `.send(action)` to pass it on (the
  /// default), `.none` to drop it, or a debounced or delayed effect.
  func transform(action: Action) -> Effect<Action>

  /// Rewrites the effect of every `mutate` call (the default returns it unchanged).
  func transform(mutation: Effect<Mutation>) -> Effect<Mutation>

  /// Adjusts the state after each mutation was reduced (the default does nothing): ReactorKit's
  /// and GoodReactor's `transform(state:)`, for fields derived from others.
  ///
  /// It runs after every mutation, not on the initial state: give the store an initial state
  /// that is already consistent. What it writes is part of the state: observed, published, asserted by a `TestStore`, and
  /// seen by every stream derived from the store with operators (`store.values(\.kp)`,
  /// `store.publisher.map(...)`), unlike a computed property, which streams cannot see change.
  ///
  /// ```swift
  /// func transform(state: inout State) {
  ///   state.canSubmit = !state.name.isEmpty && state.age >= 18
  /// }
  /// ```
  func transform(state: inout State)

  /// Mutations from outside the reactor, started when the store is created and cancelled when
  /// it is released (the default is `.none`).
  func subscriptions() -> Effect<Mutation>

  /// The route an action leads to, if any (the default is nil).
  func route(for action: Action) -> Route?
}

extension Reactor {
  public func transform(action: Action) -> Effect<Action> { .send(action) }
  public func transform(mutation: Effect<Mutation>) -> Effect<Mutation> { mutation }
  public func transform(state: inout State) {}
  public func subscriptions() -> Effect<Mutation> { .none }
  public func route(for action: Action) -> Route? { nil }
}

extension Reactor where Mutation == Action {
  /// Every action is its own mutation.
  public func mutate(state: State, action: Action) -> Effect<Mutation> { .send(action) }
}

/// A store of a reactor's state and actions: `ReactorStoreOf<CounterReactor>`.
public typealias ReactorStoreOf<R: Reactor> = Store<R.State, R.Action>
