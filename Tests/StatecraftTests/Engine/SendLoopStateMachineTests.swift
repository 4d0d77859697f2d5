import Testing

@testable import Statecraft

/// The send loop's bookkeeping as a pure state machine: each event, and the step it says comes
/// next.
@Suite struct SendLoopStateMachineTests {
  @Test func aSendToAnIdleLoopReducesThenPublishesThenSettles() {
    var loop = SendLoopStateMachine()
    expect(loop.send(), .reduce)
    #expect(loop.isBusy)
    expect(loop.reduced(), .publish)
    expect(loop.published(), .settled)
    #expect(!loop.isBusy)
  }

  @Test func aSendWhileBusyIsQueuedAndDrainedBeforePublishing() {
    var loop = SendLoopStateMachine()
    _ = loop.send()
    expect(loop.send(), .enqueue)
    expect(loop.reduced(), .drainQueue)
    expect(loop.queueDrained(), .publish)
    expect(loop.published(), .settled)
  }

  @Test func aSendFromAnObserverStartsAnotherRound() {
    var loop = SendLoopStateMachine()
    _ = loop.send()
    expect(loop.reduced(), .publish)
    expect(loop.send(), .enqueue)
    expect(loop.published(), .drainQueue)
    expect(loop.queueDrained(), .publish)
    expect(loop.published(), .settled)
  }

  @Test func aStateReplacedWhileBusyIsAppliedAfterTheQueue() {
    var loop = SendLoopStateMachine()
    _ = loop.send()
    expect(loop.replaceState(), .holdUntilSettled)
    expect(loop.send(), .enqueue)
    expect(loop.reduced(), .drainQueue)
    expect(loop.queueDrained(), .applyPendingState)
    expect(loop.pendingStateApplied(), .publish)
    expect(loop.published(), .settled)
  }

  @Test func aStateReplacedByAnObserverIsAppliedAndPublishedAgain() {
    var loop = SendLoopStateMachine()
    _ = loop.send()
    expect(loop.reduced(), .publish)
    expect(loop.replaceState(), .holdUntilSettled)
    expect(loop.published(), .applyPendingState)
    expect(loop.pendingStateApplied(), .publish)
    expect(loop.published(), .settled)
  }

  @Test func aStateReplacedWhileIdleIsAppliedAndPublishedAtOnce() {
    var loop = SendLoopStateMachine()
    expect(loop.replaceState(), .applyAndPublish)
    #expect(loop.isBusy)
    expect(loop.send(), .enqueue)
    expect(loop.published(), .drainQueue)
    expect(loop.queueDrained(), .publish)
    expect(loop.published(), .settled)
  }

  @Test func queuedChildActionsAreCountedUntilDequeued() {
    var loop = SendLoopStateMachine()
    _ = loop.send()
    loop.childActionQueued()
    loop.childActionQueued()
    #expect(loop.queuedChildActions == 2)
    expect(loop.reduced(), .drainQueue)
    loop.childActionDequeued()
    loop.childActionDequeued()
    #expect(loop.queuedChildActions == 0)
    expect(loop.queueDrained(), .publish)
  }
}

/// Checks a step a mutating method returned (`#expect` cannot call a mutating method).
private func expect<Step: Equatable>(
  _ step: Step, _ expected: Step, sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  #expect(step == expected, sourceLocation: sourceLocation)
}
