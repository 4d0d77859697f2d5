/// A feature's logic: how an action changes the state, and which effects it starts.
///
/// Conform with ``reduce(into:action:)`` for plain logic, or with ``body`` to compose other
/// reducers (the child runs before the parent):
///
/// ```swift
/// struct Counter: Reducer {
///   struct State: Equatable { var count = 0 }
///   enum Action { case increment, decrement }
///
///   func reduce(into state: inout State, action: Action) -> Effect<Action> {
///     switch action {
///     case .increment: state.count += 1
///     case .decrement: state.count -= 1
///     }
///     return .none
///   }
/// }
///
/// struct App: Reducer {
///   struct State { var counter = Counter.State(); var log: [String] = [] }
///   @CasePathable enum Action { case counter(Counter.Action) }
///
///   var body: some Reducer<State, Action> {
///     Scope(state: \.counter, action: \.counter) { Counter() }
///     Reduce { state, action in
///       state.log.append("\(action)")
///       return .none
///     }
///   }
/// }
/// ```
///
/// Reducers run on the main actor, synchronously, inside ``Store/send(_:)``.
public protocol Reducer<State, Action> {
  /// The state the reducer changes.
  associatedtype State
  /// The actions the reducer handles.
  associatedtype Action
  /// The composed reducer of a `body`-based conformance; `Never` for a `reduce`-based one.
  associatedtype Body = Never

  /// Changes `state` for `action` and returns the effects to run next.
  func reduce(into state: inout State, action: Action) -> Effect<Action>

  /// The reducers this one is made of, run in order.
  @ReducerBuilder<State, Action>
  var body: Body { get }
}

extension Reducer where Body == Never {
  /// A `reduce`-based reducer has no body.
  public var body: Body {
    fatalError(Diagnostics.bodyOfReduceBasedReducer(Self.self))
  }
}

extension Reducer where Body: Reducer, Body.State == State, Body.Action == Action {
  /// Runs ``body``.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    body.reduce(into: &state, action: action)
  }
}

/// The reducer protocol over a feature's state and actions: `some ReducerOf<Feature>` is
/// `some Reducer<Feature.State, Feature.Action>`.
///
/// It spells a reducer that works on the same state and actions as a feature, for instance the
/// `body` of a feature that composes others:
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   Scope(state: \.counter, action: \.counter) { Counter() }
///   Reduce { state, action in .none }
/// }
/// ```
public typealias ReducerOf<R: Reducer> = Reducer<R.State, R.Action>
