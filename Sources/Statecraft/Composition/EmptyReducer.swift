/// A reducer that changes nothing and starts nothing.
public struct EmptyReducer<State, Action>: Reducer {
  /// Creates a reducer that does nothing.
  @inlinable
  public init() {}

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    .none
  }
}
