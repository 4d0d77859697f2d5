// Owns the send loop's order: whether a batch is running, and which step comes next. It is pure:
// its methods take what is pending (read from RootCore's storage, which is the one source of
// truth for the queue, the effect and a replaced state) and return what RootCore.swift must do
// next.

/// The send loop of a root store, as a state machine.
///
/// A batch starts with a send (or a state replacement) while the loop is idle, and lasts until
/// nothing is pending: the queued actions are reduced in FIFO order, a replaced state is applied,
/// the observers are told, and the loop repeats while any of that made more work.
///
/// NB: the loop runs as generic code that is not specialized for the store's types. This type is
/// not generic, and what it is told is pending is two flags that its owner reads from the
/// emptiness of its arrays (a load of their count, with no metadata to look up).
@usableFromInline
struct SendLoopStateMachine {
  /// True while a batch is being reduced or published: sends made then are queued.
  private(set) var isBusy = false

  @usableFromInline
  init() {}

  /// What is pending in a batch, as the owner's storage says.
  struct Pending {
    /// Actions are queued.
    var queuedActions: Bool
    /// A state given to `replaceState` while busy waits to be applied.
    var state: Bool
  }

  // MARK: - Entering the loop

  enum SendStep: Equatable {
    /// The loop is idle: reduce the action now (the loop is busy from here).
    case reduce
    /// The loop is busy: queue the action, to be reduced before the outermost send returns.
    case enqueue
  }

  /// An action was sent.
  mutating func send() -> SendStep {
    if isBusy { return .enqueue }
    isBusy = true
    return .reduce
  }

  enum ReplaceStep: Equatable {
    /// The loop is idle: apply the state now, then publish (the loop is busy from here).
    case applyAndPublish
    /// The loop is busy: keep the state, to apply after the queued actions.
    case holdUntilSettled
  }

  /// The state was replaced outside the reducer (time travel).
  mutating func replaceState() -> ReplaceStep {
    if isBusy { return .holdUntilSettled }
    isBusy = true
    return .applyAndPublish
  }

  // MARK: - Settling a batch

  enum Step: Equatable {
    /// Reduce the queued actions, in order (then call ``reduced(_:)`` again).
    case drainQueue
    /// Apply the state replaced while busy (then publish).
    case applyPendingState
    /// Tell the observers about the batch (then call ``published(_:)``).
    case publish
    /// Nothing is pending: the loop is idle again.
    case settled
  }

  /// The sent action was reduced, or the queue drained: what the batch does next.
  func reduced(_ pending: Pending) -> Step {
    if pending.queuedActions { return .drainQueue }
    return pending.state ? .applyPendingState : .publish
  }

  /// The observers were told: an observer that sent or replaced the state starts another round.
  mutating func published(_ pending: Pending) -> Step {
    if pending.queuedActions { return .drainQueue }
    if pending.state { return .applyPendingState }
    isBusy = false
    return .settled
  }
}
