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
/// NB: the loop runs as generic code that is not specialized for the store's types. This type is
/// not generic, so what it keeps (plain flags, where the loop once kept optionals) costs nothing
/// to read there. Its flags stand for the emptiness of RootCore's queue and pending state, which
/// the loop must not read: in unspecialized code, `queue.isEmpty` or even `queue.count` looks up
/// the metadata of the array's type at each call (`swift_getGenericMetadata` was the top of a
/// `perf` profile), and asking them instead of these flags made a plain send 4× to 5× slower.
@usableFromInline
struct SendLoopStateMachine {
  /// True while a batch is being reduced or published: sends made then are queued.
  private(set) var isBusy = false
  /// Whether actions are queued.
  private(set) var hasQueuedActions = false
  /// How many queued actions were sent by a child instance's `.send`: while any is queued, each
  /// action is followed by a check that their instances are still in the state.
  private(set) var queuedChildActions = 0
  /// Whether a state given to `replaceState` while busy waits to be applied.
  private(set) var hasPendingState = false

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
    if isBusy {
      hasQueuedActions = true
      return .enqueue
    }
    isBusy = true
    return .reduce
  }

  /// A child instance's action was queued (it is dropped if the instance leaves first).
  mutating func childActionQueued() {
    hasQueuedActions = true
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
    if isBusy {
      hasPendingState = true
      return .holdUntilSettled
    }
    isBusy = true
    return .applyAndPublish
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
    if hasQueuedActions { return .drainQueue }
    return afterQueue()
  }

  /// Every queued action was reduced (those queued while draining included).
  mutating func queueDrained() -> Step {
    hasQueuedActions = false
    return afterQueue()
  }

  /// The state replaced while busy was applied.
  mutating func pendingStateApplied() -> Step {
    hasPendingState = false
    return .publish
  }

  /// The observers were told: an observer that sent or replaced the state starts another round.
  mutating func published() -> Step {
    if hasQueuedActions { return .drainQueue }
    if hasPendingState { return .applyPendingState }
    isBusy = false
    return .settled
  }

  private func afterQueue() -> Step {
    hasPendingState ? .applyPendingState : .publish
  }
}
