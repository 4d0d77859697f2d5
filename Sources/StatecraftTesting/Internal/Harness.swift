import Dependencies
import Statecraft

/// Runs a test store's feature on the engine and records what its effects send back, with the
/// state before and after each.
@MainActor
final class Harness<State, Action, ReceivedAction> {
  let runtime: StoreRuntime
  let creation: CallSite
  let log: ReceivedLog<State, ReceivedAction>
  /// The store, kept until the test store goes, so that it can still be read after `finish()`.
  private let root: any HarnessRoot<State, Action>
  var isFinished = false
  /// Whether the feature dismissed itself as a root (see `dismissAsRoot`).
  private(set) var isDismissed = false
  /// The dismissal the test set with its dependencies, called before the test store records one.
  private var testsDismissal = DismissEffect()
  var exhaustivity: Exhaustivity = .on
  /// The state as the last assertion left it.
  var assertedState: State
  /// The shared values' storage and the tracker of their changes.
  let sharing: TestSharing

  /// - Parameters:
  ///   - reduce: The feature's reducer over its store-internal events.
  ///   - embed: The event of an action the test sends.
  ///   - received: The received action an event is, if the test must receive it (nil for a
  ///     reactor, whose mutations are recorded by its reducer through the log).
  ///   - sendAsserts: What `send` asserts: the state after the sent action alone (a reducer, as
  ///     TCA), or after the whole synchronous batch it starts (a reactor, as a live store shows
  ///     it when `send` returns).
  init<Event>(
    initialState: State,
    sharing: TestSharing = TestSharing(),
    log: ReceivedLog<State, ReceivedAction> = ReceivedLog(),
    reduce reduceWithoutSharing: @escaping (inout State, Event) -> Effect<Event>,
    embed: @escaping (Action) -> Event,
    received: @escaping (Event) -> ReceivedAction?,
    sendAsserts: SendAssertion,
    creation: CallSite,
    start: Event? = nil,
    stop: Event? = nil
  ) {
    log.sendAssertion = sendAsserts
    self.assertedState = initialState
    self.sharing = sharing
    // NB: the shared values a reducer makes live in the test's storage, not the app's: the
    // storage is a dependency value, which the store keeps from its creation.
    let reduce = reduceWithoutSharing
    let root = RootCore<State, Event>(initialState: initialState) { state, event in
      if log.phase == .awaitingSentAction {
        let effect = reduce(&state, event)
        log.phase = .sending
        log.stateAfterSentAction = state
        return effect
      }
      guard let action = received(event) else { return reduce(&state, event) }
      let before = state
      let effect = reduce(&state, event)
      log.record(action, before: before, after: state)
      return effect
    }
    self.log = log
    self.root = EventRoot(core: root, embed: embed, stop: stop)
    self.runtime = root.runtime
    self.creation = creation
    // NB: through the setter, so that a root feature's dismissal is the test store's.
    self.dependencies = root.dependencies
    MainSerialExecutorUse.begin()
    if let start { _ = root.send(start, group: nil) }
  }

  /// The store's state now.
  var currentState: State { root.state }

  /// The dependency values the store reduces and starts effects with.
  ///
  /// NB: the store runs with `\.dismiss` set to the test store's root dismissal, which calls the
  /// test's own first; the test reads and writes its own.
  var dependencies: DependencyValues {
    get {
      var values = root.dependencies
      values.dismiss = testsDismissal
      return values
    }
    set {
      var values = newValue
      testsDismissal = values.dismiss
      values.dismiss = DismissEffect { [weak self] in self?.dismissAsRoot() }
      root.dependencies = values
    }
  }

  /// The feature called `@Dependency(\.dismiss)` with no presenter: as TCA's test store, record
  /// it and end its effects. The test's own dismissal, if it set one, is called first.
  private func dismissAsRoot() {
    testsDismissal.dismiss?()
    isDismissed = true
    runtime.effects.cancelAll()
  }

  /// Sends an action; returns its task and the state that `send` asserts.
  func send(_ action: Action) -> (StoreTask, State) {
    log.phase = log.sendAssertion == .sentAction ? .awaitingSentAction : .sending
    log.stateAfterSentAction = nil
    let task = root.send(action)
    log.phase = .idle
    return (task, log.stateAfterSentAction ?? currentState)
  }

  var received: [ReceivedStep<State, ReceivedAction>] {
    get { log.received }
    set { log.received = newValue }
  }

  // MARK: - Waiting

  /// Waits until `condition` holds, every effect is over, or `timeout` has passed; returns
  /// whether the condition holds.
  ///
  /// NB: the wake-up is registered in the same synchronous stretch on the main actor as the
  /// check of the condition, so no change can fall between them; and every change the
  /// condition depends on (a batch published, an effect finished or cancelled) wakes it.
  func wait(timeout: Duration, until condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while true {
      if condition() { return true }
      guard runtime.effects.activeEffectCount > 0 else { return false }
      let remaining = ContinuousClock.now.duration(to: deadline)
      guard remaining > .zero else { return false }
      guard !Task.isCancelled else { return false }
      let wakeUp = WakeUp()
      let changed = await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
          wakeUp.continuation = continuation
          let id = runtime.effects.waiters.whenChanged { wakeUp.resume(true) }
          wakeUp.timer = Task { [runtime] in
            try? await Task.sleep(for: remaining)
            runtime.effects.waiters.remove(id)
            wakeUp.resume(false)
          }
        }
      } onCancel: {
        Task { @MainActor in wakeUp.resume(false) }
      }
      if !changed { return condition() }
    }
  }

  /// Lets the work that is already due run: effects resumed by a clock, actions on their way,
  /// until twenty yields in a row change nothing in the store.
  func settle() async {
    await runtime.settle(quietYields: 20)
  }

  // MARK: - Ending

  /// Stops a feedback loop, if the feature has one.
  func stop() {
    root.stop()
  }

  /// Cancels everything still running.
  func teardown() {
    runtime.effects.cancelAll()
    sharing.end()
    MainSerialExecutorUse.end()
  }
}

/// The store a harness drives, seen without its event type: the feature's state and dependency
/// values, a test's action sent as the event that carries it, and a feedback loop's stop.
@MainActor
protocol HarnessRoot<State, Action>: AnyObject {
  associatedtype State
  associatedtype Action
  var state: State { get }
  var dependencies: DependencyValues { get set }
  func send(_ action: Action) -> StoreTask
  func stop()
}

/// A root core over a feature's events, driven by a test's actions.
@MainActor
private final class EventRoot<State, Action, Event>: HarnessRoot {
  let core: RootCore<State, Event>
  private let embed: (Action) -> Event
  private let stopEvent: Event?

  init(core: RootCore<State, Event>, embed: @escaping (Action) -> Event, stop: Event?) {
    self.core = core
    self.embed = embed
    self.stopEvent = stop
  }

  var state: State { core.state }

  var dependencies: DependencyValues {
    get { core.dependencies }
    set { core.dependencies = newValue }
  }

  func send(_ action: Action) -> StoreTask {
    core.send(embed(action), group: nil)
  }

  func stop() {
    if let stopEvent { _ = core.send(stopEvent, group: nil) }
  }
}

/// What `send` asserts: see `Harness.init`.
enum SendAssertion {
  case sentAction
  case wholeBatch
}

/// What the store received for the test: the actions effects sent back, and the routes a reactor
/// published; filled in by the reducer the harness wraps.
@MainActor
final class ReceivedLog<State, ReceivedAction> {
  enum Phase {
    case idle
    case awaitingSentAction
    case sending
  }

  var phase = Phase.idle
  var sendAssertion = SendAssertion.sentAction
  var stateAfterSentAction: State?
  /// The received actions the test has not asserted yet, in order.
  var received: [ReceivedStep<State, ReceivedAction>] = []
  /// The routes a reactor published and the test has not received, in order.
  var routes: [any Sendable] = []

  nonisolated init() {}

  /// Records an action an effect sent back, unless it is part of a `send` that asserts its whole
  /// batch.
  func record(_ action: ReceivedAction, before: State, after: State) {
    if phase != .idle && sendAssertion == .wholeBatch { return }
    received.append(ReceivedStep(action: action, before: before, after: after))
  }
}

/// An action the store received from an effect, with the state before and after it was reduced.
struct ReceivedStep<State, ReceivedAction> {
  let action: ReceivedAction
  let before: State
  let after: State
  /// Whether a later `send` already asserted past it (it was left unasserted): receiving it then
  /// checks only the change it made.
  var isStale = false
}

/// A one-shot wake-up for ``Harness/wait(timeout:until:)``.
@MainActor
private final class WakeUp {
  var continuation: CheckedContinuation<Bool, Never>?
  var timer: Task<Void, Never>?

  func resume(_ changed: Bool) {
    guard let continuation else { return }
    self.continuation = nil
    timer?.cancel()
    continuation.resume(returning: changed)
  }
}
