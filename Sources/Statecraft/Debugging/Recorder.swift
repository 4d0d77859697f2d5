import ConcurrencyExtras

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
/// value of the initial state had at that step, and the recording's JSON,
/// ``Store/jump(toStep:in:reducer:fileID:filePath:line:column:)`` and the test generator use
/// them (`RecordingSharedStateTests`, `TestGeneratorLiveRecordingTests`). A shared value that appears in the state after the first
/// action is recorded as it is when the recording is encoded.
///
/// Each step is recorded with its origin (sent from outside, or by an effect of the recorded
/// feature: see ``Recording/origins``) and its time, so that a test can be generated from the
/// session (<doc:GeneratingTests>). To record a whole store, with the origins the store itself
/// reports, use ``Store/record(into:fileID:filePath:line:column:)`` instead of the modifier.
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
  private var origins: [ActionOrigin?] = []
  private var times: [Duration?] = []
  private var checkpoints: [Recording<State, Action>.Checkpoint] = []
  private var hasSeenFirstAction = false
  /// The shared values the initial state holds: their values are kept with each stored state.
  private let sharedReferences: [any AnySharedReference]
  private let initialShared: SharedSnapshot?
  /// The time since the recorder was made, on its clock.
  private let elapsed: () -> Duration
  /// The actions that effects of the recorded reducer sent and that it has not reduced yet, in
  /// the order they were sent (see ``_RecordingReducer``).
  let ownEffectActions = PendingEffectActions<Action>()

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
  ///   - clock: The clock that times each step (``Recording/times``), from the moment the
  ///     recorder is made: the clock the feature's time-based effects run on, so that a test
  ///     generated from the session advances its `TestClock` as the session's time went. A
  ///     `ContinuousClock` by default.
  ///   - fileID: The file where a misuse is reported; leave the default.
  ///   - filePath: The file path where a misuse is reported; leave the default.
  ///   - line: The line where a misuse is reported; leave the default.
  ///   - column: The column where a misuse is reported; leave the default.
  public init(
    initialState: State,
    storingStateEvery stateInterval: Int = 1,
    clock: any Clock<Duration> = ContinuousClock(),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.initialState = initialState
    self.sharedReferences = SharedSnapshot.references(in: initialState)
    self.initialShared = sharedReferences.isEmpty ? nil : SharedSnapshot(of: sharedReferences)
    self.elapsed = Self.stopwatch(clock)
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
      stateInterval: stateInterval, origins: origins, times: times,
      initialShared: initialShared)
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

  private static func stopwatch<C: Clock<Duration>>(_ clock: C) -> () -> Duration {
    let start = clock.now
    return { start.duration(to: clock.now) }
  }

  func didReduce(_ action: Action, into state: State, origin: ActionOrigin?) {
    actions.append(action)
    origins.append(origin)
    times.append(.microseconds(microseconds(elapsed())))
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

  /// Runs the base reducer and records `action`, its origin and, when it is due, the resulting
  /// state.
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    recorder.willReduce(state, location: location)
    let pending = recorder.ownEffectActions
    let origin = pending.origin(of: action)
    let effect = base.reduce(into: &state, action: action)
    recorder.didReduce(action, into: state, origin: origin)
    guard pending.canMatch, !effect._isNone else { return effect }
    // NB: each action this reducer's effects send is noted as they send it (a `.send` as it is
    // made, which is before it is delivered); it counts as the effect's when it comes back. The
    // box is unchecked because the notes are only touched on the main actor: a `.send` is mapped
    // while the store reduces, a `.run`'s and a subscription's actions are mapped as they are
    // delivered through the main-actor `Send`.
    let sender = UncheckedSendable(pending)
    return effect.map { action in
      sender.value.noteSent(action)
      return action
    }
  }
}

// MARK: - Origins

/// The actions that the effects of a feature recorded with `recording(into:)` sent, and that the
/// feature has not reduced yet.
///
/// A reducer does not see where an action came from; the store does, but only for the store's
/// root, where a parent feature's effect and the recorded feature's own look the same. The
/// recorded feature's origin is what its own `TestStore` sees: an action is `.effect` when one of
/// its effects sent it, and `.send` otherwise (a view, a command, a parent's effect). So the
/// recording reducer notes what its effects send, and matches each action it reduces against
/// the oldest equal one noted.
///
/// NB: matching needs `==`: for an `Action` that is not `Equatable` the origins are unknown
/// (nil). An action an effect sent that never arrives (a debounced or cancelled one) stays
/// noted; the oldest are forgotten past `capacity`. An outside send equal to a noted action
/// still in flight would be taken for the effect's.
final class PendingEffectActions<Action> {
  private let isEqual = equalityCheck(for: Action.self)
  private var sent: [Action] = []
  static var capacity: Int { 1_000 }

  /// Whether origins can be told apart: `Action` is `Equatable`.
  var canMatch: Bool { isEqual != nil }

  /// The origin of an action about to be reduced: `.effect` when it matches a noted one (which
  /// is then forgotten).
  func origin(of action: Action) -> ActionOrigin? {
    guard let isEqual else { return nil }
    guard let index = sent.firstIndex(where: { isEqual($0, action) }) else { return .send }
    sent.remove(at: index)
    return .effect
  }

  func noteSent(_ action: Action) {
    if sent.count >= Self.capacity { sent.removeFirst() }
    sent.append(action)
  }
}

/// The recorder of a reducer's state and actions: `RecorderOf<Todos>(initialState: .init())`.
public typealias RecorderOf<R: Reducer> = Recorder<R.State, R.Action>
