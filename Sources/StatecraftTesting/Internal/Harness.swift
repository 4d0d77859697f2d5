import IssueReporting
import Statecraft

/// Runs a test store's feature on the engine and records what its effects send back, with the
/// state after each.
@MainActor
final class Harness<State, Action, Output> {
  let currentState: () -> State
  let runtime: StoreRuntime
  let creation: Location
  private let sendAction: (Action) -> StoreTask
  private let stopLoop: (() -> Void)?
  private let recorder: Recorder<State, Output>
  private var root: AnyObject?
  var isFinished = false
  var exhaustivity: Exhaustivity = .on

  init<Event>(
    initialState: State,
    reduce: @escaping (inout State, Event) -> Effect<Event>,
    embed: @escaping (Action) -> Event,
    output: @escaping (Event) -> Output?,
    creation: Location,
    start: Event? = nil,
    stop: Event? = nil
  ) {
    let recorder = Recorder<State, Output>()
    let root = RootCore<State, Event>(initialState: initialState) { state, event in
      let effect = reduce(&state, event)
      if recorder.isAwaitingSentAction {
        recorder.isAwaitingSentAction = false
        recorder.stateAfterSentAction = state
      } else if let output = output(event) {
        recorder.received.append((output, state))
      }
      return effect
    }
    self.recorder = recorder
    self.root = root
    self.runtime = root.runtime
    self.creation = creation
    self.currentState = { [unowned root] in root.state }
    self.sendAction = { [unowned root] action in
      recorder.isAwaitingSentAction = true
      recorder.stateAfterSentAction = nil
      let task = root.send(embed(action), group: nil)
      recorder.isAwaitingSentAction = false
      return task
    }
    self.stopLoop = stop.map { stop in { [unowned root] in _ = root.send(stop, group: nil) } }
    if let start { _ = root.send(start, group: nil) }
  }

  /// Sends an action; returns its task and the state right after it was reduced.
  func send(_ action: Action) -> (StoreTask, State) {
    let task = sendAction(action)
    return (task, recorder.stateAfterSentAction ?? currentState())
  }

  var received: [(output: Output, state: State)] {
    get { recorder.received }
    set { recorder.received = newValue }
  }

  /// Waits until `condition` holds, effects have all ended, or `timeout` has passed; returns
  /// whether the condition holds.
  func wait(timeout: Duration, until condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while !condition() {
      guard runtime.runningEffectCount > 0 else { return condition() }
      let remaining = ContinuousClock.now.duration(to: deadline)
      guard remaining > .zero else { return false }
      let changed = await Self.nextChange(of: runtime, within: remaining)
      if !changed { return condition() }
    }
    return true
  }

  /// Whether the runtime changed (an effect ended, a batch was published) within `duration`.
  nonisolated private static func nextChange(
    of runtime: StoreRuntime, within duration: Duration
  ) async -> Bool {
    await withTaskGroup(of: Bool.self) { group in
      group.addTask {
        await runtime.nextChange()
        return true
      }
      group.addTask {
        try? await Task.sleep(for: duration)
        return false
      }
      let first = await group.next() ?? false
      group.cancelAll()
      return first
    }
  }

  /// Stops a feedback loop, if the feature has one.
  func stop() {
    stopLoop?()
  }

  /// Cancels everything still running and lets the store go.
  func teardown() {
    runtime.cancelAll()
    root = nil
  }
}

/// What the engine recorded for the harness, filled in by the reducer it wraps.
final class Recorder<State, Output> {
  var isAwaitingSentAction = false
  var stateAfterSentAction: State?
  var received: [(output: Output, state: State)] = []
}

/// Where a test store reports a failure: the test's line.
struct Location {
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt

  func fail(_ message: String) {
    reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  func warn(_ message: String) {
    reportIssue(
      message, severity: .warning, fileID: fileID, filePath: filePath, line: line, column: column)
  }
}
