extension Store {
  /// Records every action this store reduces, where it came from, and the states it leads to,
  /// into `recorder`.
  ///
  /// ```swift
  /// let recorder = RecorderOf<Counter>(initialState: Counter.State())
  /// let store = Store(initialState: recorder.initialState) { Counter() }
  /// store.record(into: recorder)
  /// // ... the session ...
  /// try recorder.recording.write(to: URL(fileURLWithPath: "session.json"))
  /// ```
  ///
  /// The store tells the recorder the origin of each action (``ActionOrigin/send`` when it was
  /// sent to the store, ``ActionOrigin/effect`` when an effect sent it), so the recording can
  /// become a test (<doc:GeneratingTests>). Unlike
  /// ``Reducer/recording(into:fileID:filePath:line:column:)``, the feature's reducer is left as
  /// it is; a store that records nothing pays nothing.
  ///
  /// Call it on a root store (one made with `Store(initialState:reducer:)`), before its first
  /// action, with a recorder whose initial state is the store's. To record a feature scoped
  /// inside a larger store, apply ``Reducer/recording(into:fileID:filePath:line:column:)`` to
  /// that feature's reducer instead: its origins are then the feature's own (an action a parent
  /// feature's effect sends it counts as sent).
  ///
  /// A store made by `scope` is reported as an issue and records nothing.
  ///
  /// - Returns: Whether the store records into `recorder`.
  @discardableResult
  public func record(
    into recorder: Recorder<State, Action>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Bool {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    guard core.isRoot else {
      location.report(Diagnostics.recordOnScopedStore)
      return false
    }
    // NB: checked now rather than at the first action: the hook sees the state after it.
    recorder.willReduce(core.state, location: location)
    _ = core.runtime.stepObservers.add { step in
      guard let action = step.action as? Action, let state = step.state as? State else { return }
      recorder.didReduce(action, into: state, origin: step.origin)
    }
    return true
  }
}
