/// Groups reducers so an operator (such as `ifLet` or `onChange`) applies to all of them.
///
/// ```swift
/// var body: some Reducer<State, Action> {
///   CombineReducers {
///     Reduce { state, action in ... }
///     Scope(state: \.settings, action: \.settings) { Settings() }
///   }
///   .onChange(of: \.settings.theme) { oldTheme, newTheme in
///     Reduce { state, _ in state.needsRedraw = true; return .none }
///   }
/// }
/// ```
public struct CombineReducers<State, Action, Reducers: Reducer<State, Action>>: Reducer {
  @usableFromInline let reducers: Reducers

  /// Combines the reducers built by `build`, run in order.
  @inlinable
  public init(@ReducerBuilder<State, Action> _ build: () -> Reducers) {
    self.reducers = build()
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reducers.reduce(into: &state, action: action)
  }
}
