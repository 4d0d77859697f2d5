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

  /// Replays as ``replay(against:)`` does, in slices: after each action, `sliceEnded` says
  /// whether the slice ends there, and `pause` runs between two slices, on the caller's actor,
  /// so that a debugging tool that replays a long recording on the main actor lets the app's
  /// work run in between.
  ///
  /// NB: each slice replays with the shared values the last one ended with (see
  /// SharedReplay.swift): the replay's copies are never held across a pause.
  package func replay<R: Reducer<State, Action>>(
    against reducer: R,
    isolation: isolated (any Actor)? = #isolation,
    sliceEnded: () -> Bool,
    pause: () async -> Void
  ) async -> ReplayResult<State, Action> {
    var state = initialState
    var shared = initialShared
    var index = 0
    var nextCheckpoint = 0
    var lastMatchingStep = 0
    while true {
      var divergence: ReplayDivergence<State, Action>?
      let replayed = SharedReplay.isolating(from: shared) {
        while index < actions.count {
          let action = actions[index]
          _ = reducer.reduce(into: &state, action: action)
          index += 1
          if nextCheckpoint < checkpoints.count, checkpoints[nextCheckpoint].step == index {
            let expected = checkpoints[nextCheckpoint].state
            guard expected == state else {
              divergence = ReplayDivergence(
                step: index, stepCount: stepCount, action: action, expected: expected,
                replayed: state, lastMatchingStep: lastMatchingStep,
                stepPutBackTo: stepPutBack(before: index, expected: expected, reducer: reducer))
              return
            }
            lastMatchingStep = index
            nextCheckpoint += 1
          }
          if sliceEnded() { return }
        }
      }
      if divergence != nil || index == actions.count {
        return ReplayResult(
          stepCount: stepCount, checkedStepCount: nextCheckpoint, finalState: state,
          divergence: divergence)
      }
      shared = replayed.shared
      await pause()
    }
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

extension Recording {
  /// The recording with the state of every step: the stored ones as they are, the others
  /// recomputed by running `reducer` on the recorded actions from the step before, without
  /// effects, with its writes to shared values going to copies (see SharedReplay.swift), whose
  /// values each step keeps beside its state.
  ///
  /// A recording that stores only the states it can't recompute (the Inspector's export) is
  /// made whole this way for a tool that needs each step's state (a generated test's
  /// assertions).
  package func fillingStates<R: Reducer<State, Action>>(with reducer: R) -> Recording {
    var filled: [Checkpoint] = []
    filled.reserveCapacity(actions.count)
    var state = initialState
    var shared = initialShared
    var nextStored = 0
    let isEqual = equalityCheck(for: State.self)
    for (index, action) in actions.enumerated() {
      let step = index + 1
      let replayed = SharedReplay.isolating(from: shared) {
        _ = reducer.reduce(into: &state, action: action)
      }
      if nextStored < checkpoints.count, checkpoints[nextStored].step == step {
        // NB: a stored state may not follow from the step before (a state replaced during the
        // session): it is the truth, and the next steps go on from it. One that equals the
        // state recomputed is replaced by it, which shares its storage with the step before:
        // a tool reading each step (the test generator) then finds what did not change by its
        // bits.
        let stored = checkpoints[nextStored]
        nextStored += 1
        let recomputed = replayed.shared.isEmpty ? shared : replayed.shared
        if let isEqual, stored.shared == nil,
          SharedReplay.isolating(from: recomputed, { isEqual(state, stored.state) }).result
        {
          shared = recomputed
          filled.append(Checkpoint(step: step, state: state, shared: shared))
          continue
        }
        state = stored.state
        shared = stored.shared ?? shared
        filled.append(stored)
        continue
      }
      shared = replayed.shared.isEmpty ? shared : replayed.shared
      filled.append(Checkpoint(step: step, state: state, shared: shared))
    }
    return Recording(
      initialState: initialState, actions: actions, checkpoints: filled, stateInterval: 1,
      origins: origins, times: times, initialShared: initialShared)
  }
}
