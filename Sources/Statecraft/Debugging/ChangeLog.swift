extension Reducer {
  /// Reports each action this reducer receives, and the change it made to the state, to `sink`.
  ///
  /// ```swift
  /// let store = Store(initialState: Todos.State()) {
  ///   Todos()
  ///     .logChanges(filter: { action in
  ///       if case .timerTicked = action { return false }  // too noisy
  ///       return true
  ///     })
  /// }
  /// ```
  ///
  /// Each entry is the action and a swift-custom-dump diff of the state before (`-`) and after
  /// (`+`) it, or `(no state changes)`. Applied to the reducer a store is built from, the log
  /// sees every action the store reduces, including the actions that effects send.
  ///
  /// A reducer without this modifier pays nothing for it. With it, each logged action keeps a
  /// copy of the state while the reducer runs (so collections the reducer mutates are copied)
  /// and dumps the state twice: a debugging tool, not something to ship enabled. Actions that
  /// `filter` rejects cost only the call to `filter`.
  ///
  /// - Parameters:
  ///   - sink: Where the entries go: ``ChangeLogSink/standardError`` (the default), a closure, a
  ///     file.
  ///   - filter: Whether to log an action; return false for noisy ones. Logs every action by
  ///     default.
  public func logChanges(
    to sink: ChangeLogSink = .standardError,
    filter: @escaping (_ action: Action) -> Bool = { _ in true }
  ) -> _ChangeLogReducer<Self> {
    _ChangeLogReducer(base: self, sink: sink, filter: filter)
  }
}

/// The reducer built by ``Reducer/logChanges(to:filter:)``.
public struct _ChangeLogReducer<Base: Reducer>: Reducer {
  let base: Base
  let sink: ChangeLogSink
  let filter: (Base.Action) -> Bool

  /// Runs the base reducer and writes an entry for `action` unless the filter rejects it.
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    guard filter(action) else { return base.reduce(into: &state, action: action) }
    let before = state
    // NB: a shared value is a reference that `before` shares with `state`: its value before
    // the action is kept aside.
    let references = SharedSnapshot.references(in: state)
    let shared = references.isEmpty ? nil : SharedSnapshot(of: references)
    let effect = base.reduce(into: &state, action: action)
    sink.write(ChangeLogEntry(action: action, before: before, after: state, sharedBefore: shared))
    return effect
  }
}
