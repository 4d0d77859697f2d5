import Testing

@testable import Statecraft

/// The send loop's order as a pure state machine: each event, what its owner says is pending, and
/// the step the machine says comes next.
@Suite struct SendLoopStateMachineTests {
  private let nothing = SendLoopStateMachine.Pending(queuedActions: false, state: false)
  private let queued = SendLoopStateMachine.Pending(queuedActions: true, state: false)
  private let state = SendLoopStateMachine.Pending(queuedActions: false, state: true)
  private let queuedAndState = SendLoopStateMachine.Pending(queuedActions: true, state: true)

  @Test func aSendToAnIdleLoopReducesThenPublishesThenSettles() {
    var loop = SendLoopStateMachine()
    expect(loop.send(), .reduce)
    #expect(loop.isBusy)
    expect(loop.reduced(nothing), .publish)
    expect(loop.published(nothing), .settled)
    #expect(!loop.isBusy)
  }

  @Test func aSendWhileBusyIsQueuedAndDrainedBeforePublishing() {
    var loop = SendLoopStateMachine()
    _ = loop.send()
    expect(loop.send(), .enqueue)
    expect(loop.reduced(queued), .drainQueue)
    expect(loop.reduced(nothing), .publish)
    expect(loop.published(nothing), .settled)
  }

  @Test func aSendFromAnObserverStartsAnotherRound() {
    var loop = SendLoopStateMachine()
    _ = loop.send()
    expect(loop.reduced(nothing), .publish)
    expect(loop.send(), .enqueue)
    expect(loop.published(queued), .drainQueue)
    #expect(loop.isBusy)
    expect(loop.reduced(nothing), .publish)
    expect(loop.published(nothing), .settled)
  }

  @Test func aStateReplacedWhileBusyIsAppliedAfterTheQueue() {
    var loop = SendLoopStateMachine()
    _ = loop.send()
    expect(loop.replaceState(), .holdUntilSettled)
    expect(loop.send(), .enqueue)
    expect(loop.reduced(queuedAndState), .drainQueue)
    expect(loop.reduced(state), .applyPendingState)
    expect(loop.published(nothing), .settled)
  }

  @Test func aStateReplacedByAnObserverIsAppliedAndPublishedAgain() {
    var loop = SendLoopStateMachine()
    _ = loop.send()
    expect(loop.reduced(nothing), .publish)
    expect(loop.replaceState(), .holdUntilSettled)
    expect(loop.published(state), .applyPendingState)
    #expect(loop.isBusy)
    expect(loop.published(nothing), .settled)
  }

  @Test func aStateReplacedWhileIdleIsAppliedAndPublishedAtOnce() {
    var loop = SendLoopStateMachine()
    expect(loop.replaceState(), .applyAndPublish)
    #expect(loop.isBusy)
    expect(loop.send(), .enqueue)
    expect(loop.published(queued), .drainQueue)
    expect(loop.reduced(nothing), .publish)
    expect(loop.published(nothing), .settled)
    expect(loop.send(), .reduce)
  }
}

/// Checks a step a mutating method returned (`#expect` cannot call a mutating method).
private func expect<Step: Equatable>(
  _ step: Step, _ expected: Step, sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  #expect(step == expected, sourceLocation: sourceLocation)
}
