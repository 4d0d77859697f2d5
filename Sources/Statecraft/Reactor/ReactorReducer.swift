/// The store-internal event of a reactor store: users send actions; the store also feeds
/// transformed actions and mutations back to itself.
@usableFromInline
package enum ReactorEvent<Action, Mutation> {
  case action(Action)
  case transformed(Action)
  case mutation(Mutation)
  case subscribe
}

extension ReactorEvent: Sendable where Action: Sendable, Mutation: Sendable {}

/// Runs a ``Reactor`` as a reducer, so that sending, effects, cancellation, observation and
/// testing are the engine's.
@usableFromInline
package struct ReactorReducer<R: Reactor>: Reducer {
  @usableFromInline
  package typealias Event = ReactorEvent<R.Action, R.Mutation>

  @usableFromInline let reactor: R
  @usableFromInline let routes: RouteHub
  /// Told of every mutation reduced, with the state before and after it: how a test store
  /// records mutations, including those applied in place. Nil in a live store.
  @usableFromInline let didReduce: ((R.Mutation, R.State, R.State) -> Void)?

  @inlinable
  package init(
    reactor: R, routes: RouteHub, didReduce: ((R.Mutation, R.State, R.State) -> Void)? = nil
  ) {
    self.reactor = reactor
    self.routes = routes
    self.didReduce = didReduce
  }

  @inlinable
  package func reduce(into state: inout R.State, action event: Event) -> Effect<Event> {
    switch event {
    case .action(let action):
      if let route = reactor.route(for: action) { routes.publish(route) }
      let transformed = reactor.transform(action: action)
      // NB: the default transform is `.send(action)`: mutate at once rather than queue it.
      if case .send(let action) = transformed.operation {
        return mutate(&state, action)
      }
      return transformed.map { .transformed($0) }
    case .transformed(let action):
      return mutate(&state, action)
    case .mutation(let mutation):
      apply(mutation, to: &state)
      return .none
    case .subscribe:
      return reactor.subscriptions().map { .mutation($0) }
    }
  }

  @inlinable
  func mutate(_ state: inout R.State, _ action: R.Action) -> Effect<Event> {
    let mutations = reactor.transform(mutation: reactor.mutate(state: state, action: action))
    // NB: immediate mutations are reduced at once, so the state has changed when `send`
    // returns, as in ReactorKit.
    if case .send(let mutation) = mutations.operation {
      apply(mutation, to: &state)
      return .none
    }
    return reduceImmediateMutations(mutations, into: &state).map { .mutation($0) }
  }

  /// Reduces `mutation`, then lets the reactor adjust the state (`transform(state:)`); a test
  /// store is told of the state before and after both.
  @inlinable
  func apply(_ mutation: R.Mutation, to state: inout R.State) {
    guard let didReduce else {
      reactor.reduce(state: &state, mutation: mutation)
      reactor.transform(state: &state)
      return
    }
    let before = state
    reactor.reduce(state: &state, mutation: mutation)
    reactor.transform(state: &state)
    didReduce(mutation, before, state)
  }

  /// Reduces the mutations `effect` sends without waiting (a `.send`, the sends of a merge, the
  /// sends among the synchronous effects leading a concatenation, and those inside a
  /// cancellable effect) and returns what is left.
  ///
  /// The synchronous effects left in place (`.cancel`) then run after those mutations were
  /// reduced; a reactor's `reduce` starts no effect, so nothing can tell the difference.
  @inlinable
  func reduceImmediateMutations(
    _ effect: Effect<R.Mutation>, into state: inout R.State
  ) -> Effect<R.Mutation> {
    switch effect.operation {
    case .send(let mutation):
      apply(mutation, to: &state)
      return .none
    case .merge(let effects):
      return .merge(effects.map { reduceImmediateMutations($0, into: &state) })
    case .concatenate(let effects):
      var remaining: [Effect<R.Mutation>] = []
      var isLeading = true
      for effect in effects {
        isLeading = isLeading && effect.isSynchronous
        remaining.append(isLeading ? reduceImmediateMutations(effect, into: &state) : effect)
      }
      return .concatenate(remaining)
    case .cancellable(let id, let cancelInFlight, let effect):
      // NB: the wrapper stays, so a load still cancels the one in flight when it starts.
      return Effect(
        operation: .cancellable(
          id: id, cancelInFlight: cancelInFlight,
          reduceImmediateMutations(effect, into: &state)))
    case .dependencies(let dependencies, let effect):
      return Effect(
        operation: .dependencies(dependencies, reduceImmediateMutations(effect, into: &state)))
    default:
      return effect
    }
  }
}

extension Store {
  /// Creates a store that runs `reactor` on `initialState`.
  ///
  /// Users send only actions: `store.send(.increase)`. The reactor's `Reactor/subscriptions()`
  /// start at once and end when the store is released.
  @inlinable
  public convenience init<R: Reactor>(initialState: State, reactor: R)
  where R.State == State, R.Action == Action {
    let routes = RouteHub()
    // NB: made once and captured: made in the closure, it retained and released the reactor and
    // the routes at every action (a fifth of a reactor's send).
    let reducer = ReactorReducer(reactor: reactor, routes: routes)
    let root = RootCore(initialState: initialState, reducer: reducer)
    root.runtime.attach(routes)
    self.init(events: root, embed: { .action($0) })
    _ = root.send(.subscribe, group: nil)
  }

  /// Creates a store that runs `reactor` on the initial state the reactor declares
  /// (AsyncReactorKit's `initialState()`).
  ///
  /// ```swift
  /// final class CounterReactor: ReactorWithInitialState {
  ///   // ...
  ///   func initialState() -> State { State(count: 0) }
  /// }
  ///
  /// let store = Store(reactor: CounterReactor())
  /// ```
  @inlinable
  public convenience init<R: ReactorWithInitialState>(reactor: R)
  where R.State == State, R.Action == Action {
    self.init(initialState: reactor.initialState(), reactor: reactor)
  }
}
