extension Recording where State: Equatable {
  /// Replays the recorded actions through `reducer` and checks each stored state against the
  /// replayed one.
  ///
  /// ```swift
  /// let recording = try Recording<Todos.State, Todos.Action>(contentsOf: url)
  /// print(recording.replay(against: Todos()))
  /// // reproduced: 42 steps
  /// // or: diverged at step 17 of 42 ... with a diff of the expected and replayed states
  /// ```
  ///
  /// The replay starts from ``initialState`` and runs `reducer` on each action in order, as a
  /// fresh store would, but runs none of the effects it returns, and writes no live shared
  /// value (its reducer's writes go to copies of its own): what effects sent during the
  /// session was recorded as actions already. It stops at the first stored state that the
  /// replay does not reproduce, which happens when the reducer changed since the session was
  /// recorded, when it depends on something outside its state and actions (a clock, a random
  /// number), or when the recording was edited.
  ///
  /// - Returns: The result: ``ReplayResult/isReproduced``, or the first
  ///   ``ReplayResult/divergence`` (its step, action and diff).
  public func replay<R: Reducer<State, Action>>(against reducer: R) -> ReplayResult<State, Action> {
    // NB: the reducer's writes to shared values go to the replay's copies, never to the live
    // values (see SharedReplay.swift).
    SharedReplay.isolating(from: initialShared) { replayIsolated(against: reducer) }.result
  }

  private func replayIsolated<R: Reducer<State, Action>>(
    against reducer: R
  ) -> ReplayResult<State, Action> {
    var state = initialState
    var nextCheckpoint = 0
    var lastMatchingStep = 0
    for (index, action) in actions.enumerated() {
      _ = reducer.reduce(into: &state, action: action)
      let step = index + 1
      guard nextCheckpoint < checkpoints.count, checkpoints[nextCheckpoint].step == step else {
        continue
      }
      let expected = checkpoints[nextCheckpoint].state
      guard expected == state else {
        return ReplayResult(
          stepCount: stepCount, checkedStepCount: nextCheckpoint, finalState: state,
          divergence: ReplayDivergence(
            step: step, stepCount: stepCount, action: action, expected: expected,
            replayed: state, lastMatchingStep: lastMatchingStep))
      }
      lastMatchingStep = step
      nextCheckpoint += 1
    }
    return ReplayResult(
      stepCount: stepCount, checkedStepCount: nextCheckpoint, finalState: state, divergence: nil)
  }
}
