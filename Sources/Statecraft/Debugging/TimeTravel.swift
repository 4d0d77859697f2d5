extension Recording {
  /// The state at `step` of the recording, or nil when the recording has no such step.
  ///
  /// Step 0 is ``initialState``; step `n` is the state after the `n`th action. A stored state
  /// is returned as stored; any other is recomputed by running `reducer` (without effects) on
  /// the actions from the nearest stored state before it.
  public func state<R: Reducer<State, Action>>(at step: Int, reducer: R) -> State? {
    state(at: step, reducer: reducer, restoringShared: false)
  }

  /// The state at `step`; with `restoringShared`, the shared values it holds are then put at
  /// their values at that step (time travel).
  ///
  /// NB: the reducer runs with its shared values isolated (see SharedReplay.swift): recomputing
  /// a step never writes the live values, nor their files, unless the caller restores them.
  func state<R: Reducer<State, Action>>(
    at step: Int, reducer: R, restoringShared: Bool
  ) -> State? {
    guard (0...stepCount).contains(step) else { return nil }
    var state = initialState
    var next = 0
    var shared = initialShared
    if let index = checkpointIndex(atOrBefore: step) {
      state = checkpoints[index].state
      next = checkpoints[index].step
      shared = checkpoints[index].shared
    }
    let replayed = SharedReplay.isolating(from: shared) {
      while next < step {
        _ = reducer.reduce(into: &state, action: actions[next])
        next += 1
      }
    }
    if restoringShared, !replayed.shared.isEmpty { replayed.shared.restore() }
    return state
  }
}

extension Store {
  /// Puts the store into the state at `step` of `recording`: time travel.
  ///
  /// ```swift
  /// let recording = recorder.recording
  /// store.jump(toStep: 12, in: recording, reducer: Todos())  // the state after action 12
  /// store.jump(toStep: 0, in: recording, reducer: Todos())   // back to the start
  /// ```
  ///
  /// The state comes from ``Recording/state(at:reducer:)``: stored, or recomputed with
  /// `reducer` from the nearest stored state before `step`. Observers are told about the change
  /// as after any action. Nothing is reduced and no effect starts; effects already running
  /// keep running, and their actions apply to the new state. A recorder attached to the store
  /// does not record the jump. The ``Shared`` values the state holds go back to their values
  /// at `step` too (and a persisted one is saved).
  ///
  /// A `step` the recording doesn't have, or a store made by `scope` (jump the root store),
  /// is reported as an issue and leaves the store unchanged.
  ///
  /// - Returns: Whether the store jumped.
  @discardableResult
  public func jump<R: Reducer<State, Action>>(
    toStep step: Int,
    in recording: Recording<State, Action>,
    reducer: R,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Bool {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    guard (0...recording.stepCount).contains(step) else {
      location.report(Diagnostics.jumpOutOfRange(step: step, stepCount: recording.stepCount))
      return false
    }
    guard core.isRoot else {
      location.report(Diagnostics.jumpOnScopedStore)
      return false
    }
    // NB: the shared values the state holds go back to their values at that step too: they are
    // references, which the stored state shares with the store's.
    guard let state = recording.state(at: step, reducer: reducer, restoringShared: true) else {
      location.report(Diagnostics.jumpOutOfRange(step: step, stepCount: recording.stepCount))
      return false
    }
    guard core.replaceState(state) else {
      location.report(Diagnostics.jumpOnScopedStore)
      return false
    }
    return true
  }
}
