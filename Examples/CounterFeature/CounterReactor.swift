import Statecraft

/// The counter demo's feature, in the Reactor idiom (ReactorKit, GoodReactor, AsyncReactorKit).
///
/// Actions become mutations in ``mutate(state:action:)``; mutations change the state in
/// ``reduce(state:mutation:)``. Going past the counter's bounds sets the `alert` pulse, which
/// fires again when the same message repeats. A fact about the number loads with latency and can
/// be cancelled; changing the number cancels a fact in flight and clears a stale one.
///
/// ```swift
/// let store = Store(initialState: CounterReactor.State(), reactor: CounterReactor(facts: facts))
/// store.send(.increment)
/// await store.send(.factTapped).finish()
/// print(store.fact.value ?? "no fact")
/// ```
public struct CounterReactor: Reactor {
  public enum Action: Equatable, Sendable {
    case increment
    case decrement
    case factTapped
    case cancelFactTapped
  }

  public enum Mutation: Equatable, Sendable {
    case setCount(Int)
    case showAlert(String)
    case fact(LoadableUpdate<String>)
  }

  public struct State: Equatable, Sendable {
    public var count = 0
    public var fact: Loadable<String> = .idle
    /// An alert to show once per assignment, even when it repeats: a value, as a presented
    /// alert is (see ``CounterReactor/alert(_:)``).
    @Pulse public var alert: AlertState<Never>?

    public init(count: Int = 0) {
      self.count = count
    }
  }

  /// The alert that says `message`, with one button that dismisses it.
  public static func alert(_ message: String) -> AlertState<Never> {
    AlertState(title: message, buttons: [ButtonState(role: .cancel, label: "OK")])
  }

  /// The counter's bounds.
  public static let range = 0...20

  enum FactID: Hashable, Sendable { case fact }

  let facts: FactsService

  public init(facts: FactsService) {
    self.facts = facts
  }

  public func mutate(state: State, action: Action) -> Effect<Mutation> {
    switch action {
    case .increment:
      guard state.count < Self.range.upperBound else {
        return .send(.showAlert("The counter stops at \(Self.range.upperBound)."))
      }
      return .concatenate(.cancel(id: FactID.fact), .send(.setCount(state.count + 1)))
    case .decrement:
      guard state.count > Self.range.lowerBound else {
        return .send(.showAlert("The counter doesn't go below \(Self.range.lowerBound)."))
      }
      return .concatenate(.cancel(id: FactID.fact), .send(.setCount(state.count - 1)))
    case .factTapped:
      return .load(
        id: FactID.fact,
        operation: { [facts, count = state.count] in try await facts.fact(count) },
        update: Mutation.fact)
    case .cancelFactTapped:
      guard state.fact.isLoading else { return .send(.showAlert("No fact is loading.")) }
      return .cancelLoad(id: FactID.fact, update: Mutation.fact)
    }
  }

  public func reduce(state: inout State, mutation: Mutation) {
    switch mutation {
    case .setCount(let count):
      state.count = count
      state.fact = .idle
    case .showAlert(let message):
      state.alert = Self.alert(message)
    case .fact(let update):
      state.fact.apply(update)
    }
  }
}
