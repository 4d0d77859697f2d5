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
  /// replay does not reproduce, which happens when the state changed outside the reducer during
  /// the session (a time-travel jump, a replaced state, a shared value written from outside),
  /// when the reducer depends on something outside its state and actions (a clock, a random
  /// number), when it changed since the session was recorded, or when the recording was edited.
  /// The divergence says so, and names the earlier step the session was probably put back to
  /// when one explains the recorded state (``ReplayDivergence/stepPutBackTo``).
  ///
  /// A recording, read from JSON or made in this process, is left as it was: the reducer's
  /// writes to the shared values its states hold go to the replay's own copies.
  ///
  /// - Returns: The result: ``ReplayResult/isReproduced``, or the first
  ///   ``ReplayResult/divergence`` (its step, action, diff and likely causes).
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
            replayed: state, lastMatchingStep: lastMatchingStep,
            stepPutBackTo: stepPutBack(before: step, expected: expected, reducer: reducer)))
      }
      lastMatchingStep = step
      nextCheckpoint += 1
    }
    return ReplayResult(
      stepCount: stepCount, checkedStepCount: nextCheckpoint, finalState: state, divergence: nil)
  }

  /// The latest stored step before `step - 1` whose state, with the action of `step` applied,
  /// is `expected`: where the session was put back to before that action (time travel). Nil
  /// when none is.
  ///
  /// NB: it runs the reducer once for each of the last `limit` stored states, only once a replay
  /// has diverged, each with the shared values of that state's step, in copies of its own (see
  /// SharedReplay.swift).
  private func stepPutBack<R: Reducer<State, Action>>(
    before step: Int, expected: State, reducer: R
  ) -> Int? {
    let limit = 1_000
    let action = actions[step - 1]
    var candidates: [(step: Int, state: State, shared: SharedSnapshot?)] = []
    for checkpoint in checkpoints.reversed() where checkpoint.step < step - 1 {
      guard candidates.count < limit else { break }
      candidates.append((checkpoint.step, checkpoint.state, checkpoint.shared))
    }
    if candidates.count < limit { candidates.append((0, initialState, initialShared)) }
    for candidate in candidates {
      let matches = SharedReplay.isolating(from: candidate.shared) {
        var state = candidate.state
        _ = reducer.reduce(into: &state, action: action)
        return state == expected
      }.result
      if matches { return candidate.step }
    }
    return nil
  }
}
