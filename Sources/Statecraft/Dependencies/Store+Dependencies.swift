// Owns creating a store with changed dependency values. A store keeps the values in force when
// it is created (see Engine/RootCore.swift); these initializers change them for one store.
import Dependencies

extension Store {
  /// Creates a store that runs the reducer built by `reducer` with the dependency values that
  /// `prepareDependencies` changes.
  ///
  /// ```swift
  /// let store = Store(initialState: Todos.State()) {
  ///   Todos()
  /// } withDependencies: {
  ///   $0.continuousClock = ImmediateClock()
  /// }
  /// ```
  ///
  /// The store reduces every action, and runs every effect, with these values, whoever sends
  /// the action and whenever the effect starts. The reducer and the initial state are built
  /// with them too, as TCA does.
  public convenience init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void
  ) {
    let core = Dependencies.withDependencies(prepareDependencies) {
      let reducer = reducer()
      return RootCore(initialState: initialState(), reducer: reducer)
    }
    self.init(core: core)
  }
}
