/// A store's timeline: its initial state, every action it reduced, and the state after every
/// Nth action.
///
/// A ``Recorder`` makes recordings; ``replay(against:)`` checks that a reducer still produces
/// the recorded states, and ``Store/jump(toStep:in:reducer:fileID:filePath:line:column:)`` puts
/// a store into the state of any step. When `State` and `Action` are `Codable`, so is the
/// recording, and it reads and writes JSON (``jsonData()``, ``init(jsonData:)``).
///
/// Steps are numbered from 0: step 0 is ``initialState``, and step `n` is the state after the
/// `n`th action, `actions[n - 1]`. A recording stores the state of some steps only (see
/// ``Recorder/init(initialState:storingStateEvery:fileID:filePath:line:column:)``): ``checkpoints`` lists them, in order.
public struct Recording<State, Action> {
  /// The state before the first action (step 0).
  public let initialState: State
  /// The actions in the order the reducer received them; `actions[n - 1]` led to step `n`.
  public let actions: [Action]
  /// The stored states, in increasing step order: the state after every ``stateInterval``th
  /// action.
  public let checkpoints: [Checkpoint]
  /// How many actions lie between two stored states: 1 when every state is stored.
  public let stateInterval: Int

  /// The number of steps after the initial state: the number of actions.
  public var stepCount: Int { actions.count }

  /// A stored state: the state after the action of step ``step``.
  public struct Checkpoint {
    /// The step, from 1 to the recording's ``Recording/stepCount``.
    public let step: Int
    /// The state after the `step`th action.
    public let state: State
    /// The values the shared values of `state` had after the action (see SharedSnapshot.swift);
    /// nil when the state holds none, or the recording was read from JSON (its shared values
    /// are then values of their own).
    let shared: SharedSnapshot?

    init(step: Int, state: State, shared: SharedSnapshot? = nil) {
      self.step = step
      self.state = state
      self.shared = shared
    }
  }

  /// The values the shared values of ``initialState`` had when the recording started.
  let initialShared: SharedSnapshot?

  init(
    initialState: State, actions: [Action], checkpoints: [Checkpoint], stateInterval: Int,
    initialShared: SharedSnapshot? = nil
  ) {
    self.initialState = initialState
    self.actions = actions
    self.checkpoints = checkpoints
    self.stateInterval = stateInterval
    self.initialShared = initialShared
  }

  /// The state stored for `step` (the initial state for step 0), or nil when the recording
  /// did not store that step or it is out of range.
  ///
  /// Use ``state(at:reducer:)`` to get the state of any step.
  public func storedState(at step: Int) -> State? {
    if step == 0 { return initialState }
    guard let index = checkpointIndex(atOrBefore: step), checkpoints[index].step == step else {
      return nil
    }
    return checkpoints[index].state
  }
}

extension Recording: Sendable where State: Sendable, Action: Sendable {}
extension Recording.Checkpoint: Sendable where State: Sendable {}
extension Recording: Equatable where State: Equatable, Action: Equatable {
  public static func == (lhs: Recording, rhs: Recording) -> Bool {
    lhs.stateInterval == rhs.stateInterval && lhs.initialState == rhs.initialState
      && lhs.actions == rhs.actions && lhs.checkpoints == rhs.checkpoints
  }
}
extension Recording.Checkpoint: Equatable where State: Equatable {
  public static func == (lhs: Recording.Checkpoint, rhs: Recording.Checkpoint) -> Bool {
    lhs.step == rhs.step && lhs.state == rhs.state
  }
}

// MARK: - Helpers

extension Recording {
  /// The index of the last checkpoint whose step is at most `step`, by binary search.
  func checkpointIndex(atOrBefore step: Int) -> Int? {
    var low = 0
    var high = checkpoints.count
    while low < high {
      let middle = (low + high) / 2
      if checkpoints[middle].step <= step { low = middle + 1 } else { high = middle }
    }
    return low == 0 ? nil : low - 1
  }

  /// Throws if the checkpoints are out of order or name steps the recording doesn't have.
  func validate() throws(RecordingError) {
    guard stateInterval >= 1 else {
      throw .inconsistent("its state interval is \(stateInterval); it must be at least 1")
    }
    var previous = 0
    for checkpoint in checkpoints {
      guard checkpoint.step > previous, checkpoint.step <= actions.count else {
        throw .inconsistent(
          """
          it stores a state for step \(checkpoint.step), but its stored steps must increase and \
          lie between 1 and \(actions.count), its number of actions
          """)
      }
      previous = checkpoint.step
    }
  }
}

/// A recording of a reducer's state and actions: `try RecordingOf<Todos>(contentsOf: url)`.
public typealias RecordingOf<R: Reducer> = Recording<R.State, R.Action>
