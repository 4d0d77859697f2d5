// Owns the reducer operators that change the dependency values of a subtree of features
// (`.dependency(\.x, y)`, `.dependency(y)`, `.transformDependency(\.x) { }`): the child reduces
// with the changed values, and the effect it returns runs with them (see
// `Effect.Operation.dependencies`, carried out by Engine/EffectInterpreter.swift).
import Dependencies

extension Reducer {
  /// This reducer, with the dependency at `keyPath` set to `value` for it and every feature it
  /// composes, and for the effects they return.
  ///
  /// ```swift
  /// Scope(state: \.search, action: \.search) {
  ///   Search()
  ///     .dependency(\.continuousClock, ImmediateClock())
  /// }
  /// ```
  ///
  /// The values reach the reducer while it reduces, and every effect it returns, including a
  /// `.run` that starts later (a step of a concatenation, a throttled effect). Other features
  /// keep the values of their store.
  @inlinable
  public func dependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable,
    _ value: Value
  ) -> DependencyReducer<Self> {
    // NB: `Value` need not be `Sendable` (a clock existential), as in swift-dependencies'
    // `withDependencies`, whose values are read on the tasks that run with them.
    let value = UncheckedSendable(value)
    return DependencyReducer(base: self) { $0[keyPath: keyPath] = value.value }
  }

  /// This reducer, with the dependency that `value`'s type registers set to `value`: the
  /// spelling for a dependency registered by type rather than by key path.
  ///
  /// ```swift
  /// Feature()
  ///   .dependency(APIClient.mock)
  /// ```
  @inlinable
  public func dependency<Value: TestDependencyKey>(_ value: Value) -> DependencyReducer<Self>
  where Value == Value.Value {
    let value = UncheckedSendable(value)
    return DependencyReducer(base: self) { $0[Value.self] = value.value }
  }

  /// This reducer, with the dependency at `keyPath` changed by `transform` from the value it
  /// inherits, for it, the features it composes and the effects they return.
  ///
  /// ```swift
  /// Child()
  ///   .transformDependency(\.analytics) { analytics in
  ///     analytics = analytics.tagged("child")
  ///   }
  /// ```
  @inlinable
  public func transformDependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable,
    transform: @escaping @Sendable (_ value: inout Value) -> Void
  ) -> DependencyReducer<Self> {
    DependencyReducer(base: self) { transform(&$0[keyPath: keyPath]) }
  }
}

/// A reducer that runs its base with changed dependency values: made by
/// ``Reducer/dependency(_:_:)``, ``Reducer/dependency(_:)`` and
/// ``Reducer/transformDependency(_:transform:)``.
///
/// The changes apply on top of the values the reducer inherits (its store's, or an enclosing
/// `DependencyReducer`'s), at every action, so that a parent's later override of another
/// dependency still reaches the child.
public struct DependencyReducer<Base: Reducer>: Reducer {
  @usableFromInline let base: Base
  @usableFromInline let update: @Sendable (inout DependencyValues) -> Void

  @usableFromInline
  init(base: Base, update: @escaping @Sendable (inout DependencyValues) -> Void) {
    self.base = base
    self.update = update
  }

  /// Runs the base reducer with the changed values; its effect runs with them too.
  @inlinable
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    // NB: through `withDependencies`, not by writing the values by hand: a key path's write
    // reads the value first, and swift-dependencies reports that read of a dependency that has
    // no test value unless it happens inside `withDependencies`' update.
    withDependencies(update) {
      base.reduce(into: &state, action: action).withDependencies(DependencyValues._current)
    }
  }

  /// Another change, kept in this reducer rather than wrapping it in another.
  ///
  /// As with nested reducers, the change written closest to the reducer wins:
  /// `Feature().dependency(\.value, 42).dependency(\.value, 1729)` reads 42.
  @inlinable
  public func dependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable,
    _ value: Value
  ) -> Self {
    let value = UncheckedSendable(value)
    return fused { $0[keyPath: keyPath] = value.value }
  }

  /// Another transformation, kept in this reducer rather than wrapping it in another; it runs
  /// before this reducer's own changes.
  @inlinable
  public func transformDependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable,
    transform: @escaping @Sendable (_ value: inout Value) -> Void
  ) -> Self {
    fused { transform(&$0[keyPath: keyPath]) }
  }

  /// This reducer, with `outer` applied before its own changes (an outer change is applied
  /// first, so the inner one wins).
  @usableFromInline
  func fused(_ outer: @escaping @Sendable (inout DependencyValues) -> Void) -> Self {
    let inner = update
    return Self(base: base) {
      outer(&$0)
      inner(&$0)
    }
  }
}

extension Effect {
  /// This effect, run with `dependencies` rather than the values of the store that runs it.
  @usableFromInline
  func withDependencies(_ dependencies: DependencyValues) -> Self {
    isNone ? self : Self(operation: .dependencies(dependencies, self))
  }
}
