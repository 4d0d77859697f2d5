// Owns the send loop's bookkeeping: whether a batch is running, and what is pending in it (queued
// actions, a state replaced while busy). It is pure: its mutating methods record an event and
// return what RootCore.swift must do next; the queue and the state themselves stay in RootCore,
// typed. The effect of the action just reduced is not its business: the reducer's closure says
// whether it stored one, and the loop starts it at once.

/// The send loop of a root store, as a state machine.
///
/// A batch starts with a send (or a state replacement) while the loop is idle, and lasts until
/// nothing is pending: the queued actions are reduced in FIFO order, a replaced state is applied,
/// the observers are told, and the loop repeats while any of that made more work.
///
/// The loop is in one of two phases: idle, or running a batch with what the batch has still to do
/// (queued actions, a state replaced while busy). Idle has nothing pending, by construction.
///
/// NB: the one constraint on this type, measured: the loop runs as generic code that is not
/// specialized for the store's types, so what it reads there must not be generic. This type is
/// not, and its phase stands for the emptiness of RootCore's queue and pending state, which the
/// loop must not read: in unspecialized code, `queue.isEmpty` or even `queue.count` looks up the
/// metadata of the array's type at each call (`swift_getGenericMetadata` was the top of a `perf`
/// profile), and asking them instead made a plain send 4× to 5× slower.
@usableFromInline
struct SendLoopStateMachine {
  /// Where the loop is.
  enum Phase: Equatable {
    /// No batch runs: a send reduces its action at once.
    case idle
    /// A batch runs (an action is reduced, the queue drained, or the observers told): sends
    /// made now are queued. What it has still to do besides the step under way: actions queued
    /// since the queue was last drained, and a state given to `replaceState` to apply.
    case busy(queuedActions: Bool, replacedState: Bool)
  }

  private(set) var phase = Phase.idle
  /// How many queued actions were sent by a child instance's `.send`: while any is queued, each
  /// action is followed by a check that their instances are still in the state.
  private(set) var queuedChildActions = 0

  /// True while a batch runs: sends made then are queued.
  var isBusy: Bool {
    if case .idle = phase { return false }
    return true
  }

  @usableFromInline
  init() {}

  // MARK: - Entering the loop

  enum SendStep: Equatable {
    /// The loop is idle: reduce the action now (the loop is busy from here).
    case reduce
    /// The loop is busy: queue the action, to be reduced before the outermost send returns.
    case enqueue
  }

  /// An action was sent.
  mutating func send() -> SendStep {
    switch phase {
    case .idle:
      phase = .busy(queuedActions: false, replacedState: false)
      return .reduce
    case .busy(_, let replacedState):
      phase = .busy(queuedActions: true, replacedState: replacedState)
      return .enqueue
    }
  }

  /// A child instance's action was queued while busy (it is dropped if the instance leaves
  /// first).
  mutating func childActionQueued() {
    if case .busy(_, let replacedState) = phase {
      phase = .busy(queuedActions: true, replacedState: replacedState)
    }
    queuedChildActions += 1
  }

  /// A child instance's queued action was dequeued.
  mutating func childActionDequeued() {
    queuedChildActions -= 1
  }

  enum ReplaceStep: Equatable {
    /// The loop is idle: apply the state now, then publish (the loop is busy from here).
    case applyAndPublish
    /// The loop is busy: keep the state, to apply after the queued actions.
    case holdUntilSettled
  }

  /// The state was replaced outside the reducer (time travel).
  mutating func replaceState() -> ReplaceStep {
    switch phase {
    case .idle:
      phase = .busy(queuedActions: false, replacedState: false)
      return .applyAndPublish
    case .busy(let queuedActions, _):
      phase = .busy(queuedActions: queuedActions, replacedState: true)
      return .holdUntilSettled
    }
  }

  // MARK: - Settling a batch

  enum Step: Equatable {
    /// Reduce the queued actions, in order (then call ``queueDrained()``).
    case drainQueue
    /// Apply the state replaced while busy (then call ``pendingStateApplied()``).
    case applyPendingState
    /// Tell the observers about the batch (then call ``published()``).
    case publish
    /// Nothing is pending: the loop is idle again.
    case settled
  }

  /// The sent action was reduced, or the replaced state applied: what the batch does next.
  mutating func reduced() -> Step {
    guard case .busy(let queuedActions, let replacedState) = phase else { return .settled }
    if queuedActions { return .drainQueue }
    return replacedState ? .applyPendingState : .publish
  }

  /// Every queued action was reduced (those queued while draining included).
  mutating func queueDrained() -> Step {
    guard case .busy(_, let replacedState) = phase else { return .settled }
    phase = .busy(queuedActions: false, replacedState: replacedState)
    return replacedState ? .applyPendingState : .publish
  }

  /// The state replaced while busy was applied.
  mutating func pendingStateApplied() -> Step {
    guard case .busy(let queuedActions, _) = phase else { return .settled }
    phase = .busy(queuedActions: queuedActions, replacedState: false)
    return .publish
  }

  /// The observers were told: an observer that sent or replaced the state starts another round.
  mutating func published() -> Step {
    guard case .busy(let queuedActions, let replacedState) = phase else { return .settled }
    if queuedActions { return .drainQueue }
    if replacedState { return .applyPendingState }
    phase = .idle
    return .settled
  }
}
