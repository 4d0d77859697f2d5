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
    _OnChangeReducer(base: self, toValue: toValue, isDuplicate: ==, reducer: reducer)
  }

  /// Runs `reducer` after this reducer whenever the value at `toValue` changed, as decided by
  /// `isDuplicate`: for values that are not `Equatable`, or a looser notion of change.
  ///
  /// ```swift
  /// .onChange(of: \.query, removeDuplicates: { $0.lowercased() == $1.lowercased() }) {
  ///   oldQuery, newQuery in
  ///   Reduce { state, _ in .send(.search(newQuery)) }
  /// }
  /// ```
  ///
  /// `isDuplicate(old, new)` is called with the value before and after this reducer runs for
  /// each action; `reducer` runs when it returns false.
  @inlinable
  public func onChange<Value, Changed: Reducer<State, Action>>(
    of toValue: @escaping (State) -> Value,
    removeDuplicates isDuplicate: @escaping (_ oldValue: Value, _ newValue: Value) -> Bool,
    @ReducerBuilder<State, Action> _ reducer:
      @escaping (_ oldValue: Value, _ newValue: Value) ->
      Changed
  ) -> _OnChangeReducer<Self, Value, Changed> {
    _OnChangeReducer(base: self, toValue: toValue, isDuplicate: isDuplicate, reducer: reducer)
  }
}

/// The reducer built by `onChange(of:_:)` and `onChange(of:removeDuplicates:_:)`.
public struct _OnChangeReducer<Base: Reducer, Value, Changed: Reducer>: Reducer
where Changed.State == Base.State, Changed.Action == Base.Action {
  @usableFromInline let base: Base
  @usableFromInline let toValue: (Base.State) -> Value
  @usableFromInline let isDuplicate: (Value, Value) -> Bool
  @usableFromInline let reducer: (Value, Value) -> Changed

  @usableFromInline
  init(
    base: Base, toValue: @escaping (Base.State) -> Value,
    isDuplicate: @escaping (Value, Value) -> Bool,
    reducer: @escaping (Value, Value) -> Changed
  ) {
    self.base = base
    self.toValue = toValue
    self.isDuplicate = isDuplicate
    self.reducer = reducer
  }

  @inlinable
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let oldValue = toValue(state)
    let baseEffect = base.reduce(into: &state, action: action)
    let newValue = toValue(state)
    guard !isDuplicate(oldValue, newValue) else { return baseEffect }
    let changedEffect = reducer(oldValue, newValue).reduce(into: &state, action: action)
    if baseEffect.isNone { return changedEffect }
    return .merge(baseEffect, changedEffect)
  }
}
