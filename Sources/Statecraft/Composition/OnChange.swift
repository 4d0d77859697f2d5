extension Reducer {
  /// Runs `reducer` after this reducer whenever the value at `toValue` changed.
  ///
  /// ```swift
  /// var body: some Reducer<State, Action> {
  ///   Reduce { state, action in ... }
  ///     .onChange(of: \.query) { oldQuery, newQuery in
  ///       Reduce { state, _ in
  ///         .run { send in await send(.search(newQuery)) }
  ///           .debounce(id: CancelID.search, for: .milliseconds(300), clock: clock)
  ///       }
  ///     }
  /// }
  /// ```
  ///
  /// The value is compared with `==` before and after this reducer runs for each action.
  @inlinable
  public func onChange<Value: Equatable, Changed: Reducer<State, Action>>(
    of toValue: @escaping (State) -> Value,
    @ReducerBuilder<State, Action> _ reducer:
      @escaping (_ oldValue: Value, _ newValue: Value) ->
      Changed
  ) -> _OnChangeReducer<Self, Value, Changed> {
    _OnChangeReducer(base: self, toValue: toValue, reducer: reducer)
  }
}

/// The reducer built by ``Reducer/onChange(of:_:)``.
public struct _OnChangeReducer<Base: Reducer, Value: Equatable, Changed: Reducer>: Reducer
where Changed.State == Base.State, Changed.Action == Base.Action {
  @usableFromInline let base: Base
  @usableFromInline let toValue: (Base.State) -> Value
  @usableFromInline let reducer: (Value, Value) -> Changed

  @usableFromInline
  init(
    base: Base, toValue: @escaping (Base.State) -> Value,
    reducer: @escaping (Value, Value) -> Changed
  ) {
    self.base = base
    self.toValue = toValue
    self.reducer = reducer
  }

  @inlinable
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let oldValue = toValue(state)
    let baseEffect = base.reduce(into: &state, action: action)
    let newValue = toValue(state)
    guard oldValue != newValue else { return baseEffect }
    let changedEffect = reducer(oldValue, newValue).reduce(into: &state, action: action)
    if baseEffect.isNone { return changedEffect }
    return .merge(baseEffect, changedEffect)
  }
}
