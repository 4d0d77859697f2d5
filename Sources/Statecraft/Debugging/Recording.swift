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
/// ``Recorder/init(initialState:storingStateEvery:clock:fileID:filePath:line:column:)``): ``checkpoints`` lists them, in order.
///
/// Each step also carries where its action came from (``origins``: sent from outside or by an
/// effect) and when it was reduced (``times``), which is what
/// <doc:GeneratingTests> needs.
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
  /// Where each action came from, one per action: `origins[n - 1]` is the origin of step `n`.
  ///
  /// ``ActionOrigin/send`` for an action sent to the recorded feature from outside (a view, a
  /// command, a parent feature's effect), ``ActionOrigin/effect`` for one that an effect of the
  /// recorded feature sent: what a `TestStore` of that feature sends and receives.
  ///
  /// `nil` means unknown: the recording was written before origins were recorded (its JSON has
  /// no `origins`), or it was recorded with
  /// ``Reducer/recording(into:fileID:filePath:line:column:)`` on a feature whose `Action` is not
  /// `Equatable`. Tools that need an origin treat an unknown one as ``ActionOrigin/send``.
  public let origins: [ActionOrigin?]
  /// When each action was reduced, measured from the moment the recorder was made (on a
  /// `ContinuousClock`, to the microsecond), one per action; `nil` where unknown (a recording
  /// written before times were recorded).
  ///
  /// A generated test advances its `TestClock` by these times, so that time-based effects
  /// deliver their actions in the order the session saw them.
  public let times: [Duration?]

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
    origins: [ActionOrigin?]? = nil, times: [Duration?]? = nil,
    initialShared: SharedSnapshot? = nil
  ) {
    self.initialState = initialState
    self.actions = actions
    self.checkpoints = checkpoints
    self.stateInterval = stateInterval
    self.initialShared = initialShared
    self.origins = origins ?? Array(repeating: nil, count: actions.count)
    self.times = times ?? Array(repeating: nil, count: actions.count)
  }

  /// The origin of step `step` (from 1 to ``stepCount``): nil when it is unknown (see
  /// ``origins``) or the recording has no such step.
  public func origin(ofStep step: Int) -> ActionOrigin? {
    guard step >= 1, step <= origins.count else { return nil }
    return origins[step - 1]
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

  /// The values that the shared values of the initial state had at `step` (step 0: when the
  /// recording started), kept beside the state stored for it; nil when the recording did not
  /// store that step, its states hold no shared value, or it was read from JSON (its states'
  /// shared values are then values of their own).
  ///
  /// A tool that reads a stored state of a recording made in this process reads it under this
  /// snapshot (`SharedSnapshot.whileReading`): the state holds references, which read the values
  /// as they are now.
  package func sharedSnapshot(at step: Int) -> SharedSnapshot? {
    if step == 0 { return initialShared }
    guard let index = checkpointIndex(atOrBefore: step), checkpoints[index].step == step else {
      return nil
    }
    return checkpoints[index].shared
  }
}

extension Recording: Sendable where State: Sendable, Action: Sendable {}
extension Recording.Checkpoint: Sendable where State: Sendable {}
extension Recording: Equatable where State: Equatable, Action: Equatable {
  /// Whether two recordings hold the same initial state, actions, origins and stored states.
  ///
  /// Their ``times`` are not compared: two sessions of the same actions are the same recording,
  /// however fast they were played.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.initialState == rhs.initialState && lhs.actions == rhs.actions
      && lhs.origins == rhs.origins && lhs.checkpoints == rhs.checkpoints
      && lhs.stateInterval == rhs.stateInterval
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
    guard origins.count == actions.count, times.count == actions.count else {
      throw .inconsistent(
        """
        it has \(actions.count) actions but \(origins.count) origins and \(times.count) times; \
        each action needs one of each
        """)
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
