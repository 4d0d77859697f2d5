/// Records a store's timeline: the actions its reducer receives and the states they lead to.
///
/// Attach a recorder to the reducer a store is built from, with
/// ``Reducer/recording(into:fileID:filePath:line:column:)``, and read ``recording`` whenever you
/// want the timeline so far:
///
/// ```swift
/// let recorder = Recorder(initialState: Todos.State())
/// let store = Store(initialState: recorder.initialState) {
///   Todos().recording(into: recorder)
/// }
/// // ... the session ...
/// try recorder.recording.write(to: URL(fileURLWithPath: "session.json"))
/// ```
///
/// At the root of a store, the recorder sees every action the store reduces, including those
/// that effects send, so a replay needs no effects. It keeps every action, and the state after
/// every `stateInterval`th one: with a large interval, a long session costs the memory of its
/// actions and of a bounded number of states.
///
/// A state that holds ``Shared`` values holds references, so each stored copy would read the
/// values as they are now: the recorder keeps, with each stored state, the value each shared
/// value of the initial state had at that step, and the recording's JSON and
/// ``Store/jump(toStep:in:reducer:fileID:filePath:line:column:)`` use them
/// (`RecordingSharedStateTests`). A shared value that appears in the state after the first
/// action is recorded as it is when the recording is encoded.
///
/// Only actions are recorded. A change made outside the reducer (a
/// ``Store/jump(toStep:in:reducer:fileID:filePath:line:column:)``) is not, so a recording made
/// across a jump does not replay; start a new recorder after jumping.
public final class Recorder<State, Action> {
  /// The state the recording starts from: build the store from it.
  public let initialState: State
  /// How many actions lie between two stored states (1: every state is stored).
  public let stateInterval: Int

  private var actions: [Action] = []
  private var checkpoints: [Recording<State, Action>.Checkpoint] = []
  private var hasSeenFirstAction = false
  /// The shared values the initial state holds: their values are kept with each stored state.
  private let sharedReferences: [any AnySharedReference]
  private let initialShared: SharedSnapshot?

  /// A recorder of a timeline that starts at `initialState`, storing the state after every
  /// `stateInterval`th action.
  ///
  /// - Parameters:
  ///   - initialState: The state of the store (or of the feature the recorder is attached to)
  ///     before its first action.
  ///   - stateInterval: Store the state after every `stateInterval`th action only, to bound
  ///     memory in long sessions; 1 (the default) stores every state, so that a replay reports
  ///     the exact step at which it diverges. Replays and jumps recompute the states in
  ///     between from the nearest stored one.
  ///   - fileID: The file where a misuse is reported; leave the default.
  ///   - filePath: The file path where a misuse is reported; leave the default.
  ///   - line: The line where a misuse is reported; leave the default.
  ///   - column: The column where a misuse is reported; leave the default.
  public init(
    initialState: State,
    storingStateEvery stateInterval: Int = 1,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.initialState = initialState
    self.sharedReferences = SharedSnapshot.references(in: initialState)
    self.initialShared = sharedReferences.isEmpty ? nil : SharedSnapshot(of: sharedReferences)
    if stateInterval < 1 {
      SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        .report(Diagnostics.recorderStateInterval(stateInterval))
      self.stateInterval = 1
    } else {
      self.stateInterval = stateInterval
    }
  }

  /// The timeline recorded so far.
  public var recording: Recording<State, Action> {
    Recording(
      initialState: initialState, actions: actions, checkpoints: checkpoints,
      stateInterval: stateInterval, initialShared: initialShared)
  }

  /// The number of actions recorded so far.
  public var stepCount: Int { actions.count }

  // MARK: - Recording

  func willReduce(_ state: State, location: SourceLocation) {
    guard !hasSeenFirstAction else { return }
    hasSeenFirstAction = true
    guard let isEqual = equalityCheck(for: State.self), !isEqual(initialState, state) else {
      return
    }
    location.report(Diagnostics.recorderStartedInAnotherState)
  }

  func didReduce(_ action: Action, into state: State) {
    actions.append(action)
    if actions.count.isMultiple(of: stateInterval) {
      checkpoints.append(
        Recording.Checkpoint(
          step: actions.count, state: state,
          shared: sharedReferences.isEmpty ? nil : SharedSnapshot(of: sharedReferences)))
    }
  }
}

extension Reducer {
  /// Records every action this reducer receives, and the states they lead to, into `recorder`.
  ///
  /// ```swift
  /// let recorder = Recorder(initialState: Todos.State())
  /// let store = Store(initialState: recorder.initialState) {
  ///   Todos().recording(into: recorder)
  /// }
  /// ```
  ///
  /// Apply it to the reducer a store is built from, so that it sees the actions effects send
  /// too. To record only when asked, build either reducer:
  /// `if let recorder { Todos().recording(into: recorder) } else { Todos() }`.
  ///
  /// A reducer without this modifier pays nothing for it. With it, each action is appended to
  /// the recorder, and each stored state is a copy (the next mutation of a collection in it
  /// copies that collection).
  public func recording(
    into recorder: Recorder<State, Action>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _RecordingReducer<Self> {
    _RecordingReducer(
      base: self, recorder: recorder,
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}

/// The reducer built by ``Reducer/recording(into:fileID:filePath:line:column:)``.
public struct _RecordingReducer<Base: Reducer>: Reducer {
  let base: Base
  let recorder: Recorder<Base.State, Base.Action>
  let location: SourceLocation

  /// Runs the base reducer and records `action` and, when it is due, the resulting state.
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    recorder.willReduce(state, location: location)
    let effect = base.reduce(into: &state, action: action)
    recorder.didReduce(action, into: state)
    return effect
  }
}

/// The recorder of a reducer's state and actions: `RecorderOf<Todos>(initialState: .init())`.
public typealias RecorderOf<R: Reducer> = Recorder<R.State, R.Action>
