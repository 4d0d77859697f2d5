import Statecraft

/// A reactor whose `mutate` returns a publisher of mutations, as in GoodReactor 1.x and
/// ReactorKit: the store subscribes to it and cancels the subscription with the effect.
///
/// ```swift
/// final class CounterViewModel: PublisherReactor {
///   enum Action: Sendable { case increase }
///   enum Mutation: Sendable { case setCount(Int) }
///   struct State { var count = 0 }
///
///   func mutate(state: State, action: Action) -> AnyPublisher<Mutation, Never> {
///     Just(.setCount(state.count + 1)).eraseToAnyPublisher()
///   }
///
///   func reduce(state: inout State, mutation: Mutation) {
///     if case .setCount(let count) = mutation { state.count = count }
///   }
/// }
/// ```
public protocol PublisherReactor: Reactor where Mutation: Sendable {
  /// The mutations an action causes, as a publisher.
  func mutate(state: State, action: Action) -> AnyPublisher<Mutation, Never>
}

extension PublisherReactor {
  /// Runs the publisher of ``mutate(state:action:)`` as an effect.
  public func mutate(state: State, action: Action) -> Effect<Mutation> {
    .publisher(mutate(state: state, action: action) as AnyPublisher<Mutation, Never>)
  }
}
