import ConcurrencyExtras
import Testing

@testable import Statecraft

/// The throttle windows as a pure state machine: each event, and what it says to do next.
@Suite struct ThrottleStateMachineTests {
  let key = CancellationKey(namespace: [], id: AnyHashableSendable("scroll"))
  let otherKey = CancellationKey(namespace: [], id: AnyHashableSendable("save"))

  @Test func theFirstEffectStartsAndOpensAWindow() {
    var machine = ThrottleStateMachine<String>()
    guard case .startAndOpenWindow = machine.effectArrived("a", key: key, latest: true) else {
      Issue.record("expected the first effect to start")
      return
    }
    machine.windowOpened(key, token: 7)
    #expect(machine.isIdleWindow(7))
    #expect(machine.idleWindows == [7])
  }

  @Test func latestKeepsTheLastEffectOfTheWindow() {
    var machine = ThrottleStateMachine<String>()
    _ = machine.effectArrived("a", key: key, latest: true)
    machine.windowOpened(key, token: 1)
    guard case .heldBack(window: 1) = machine.effectArrived("b", key: key, latest: true),
      case .heldBack(window: 1) = machine.effectArrived("c", key: key, latest: true)
    else {
      Issue.record("expected the effects to be held back in window 1")
      return
    }
    #expect(!machine.isIdleWindow(1))
    guard case .startHeldBack("c") = machine.windowElapsed(key) else {
      Issue.record("expected the latest effect to start")
      return
    }
    #expect(machine.windows.isEmpty)
  }

  @Test func firstKeepsTheFirstEffectOfTheWindowAndDropsTheRest() {
    var machine = ThrottleStateMachine<String>()
    _ = machine.effectArrived("a", key: key, latest: false)
    machine.windowOpened(key, token: 1)
    guard case .heldBack(window: 1) = machine.effectArrived("b", key: key, latest: false),
      case .drop = machine.effectArrived("c", key: key, latest: false)
    else {
      Issue.record("expected b held back and c dropped")
      return
    }
    guard case .startHeldBack("b") = machine.windowElapsed(key) else {
      Issue.record("expected the first held-back effect to start")
      return
    }
  }

  @Test func aWindowThatHeldNothingBackCloses() {
    var machine = ThrottleStateMachine<String>()
    _ = machine.effectArrived("a", key: key, latest: true)
    machine.windowOpened(key, token: 1)
    guard case .close = machine.windowElapsed(key) else {
      Issue.record("expected the window to close")
      return
    }
    guard case .startAndOpenWindow = machine.effectArrived("b", key: key, latest: true) else {
      Issue.record("expected a new window after the last one closed")
      return
    }
  }

  @Test func cancellingAKeyDropsWhatItsWindowHeldBack() {
    var machine = ThrottleStateMachine<String>()
    _ = machine.effectArrived("a", key: key, latest: true)
    machine.windowOpened(key, token: 1)
    _ = machine.effectArrived("b", key: key, latest: true)
    _ = machine.effectArrived("x", key: otherKey, latest: true)
    machine.windowOpened(otherKey, token: 2)
    machine.cancel(key)
    guard case .close = machine.windowElapsed(key) else {
      Issue.record("expected nothing to start after the cancel")
      return
    }
    #expect(machine.windows.keys.map { $0 } == [otherKey])
  }

  @Test func cancellingANamespaceClosesTheWindowsInsideIt() {
    let row = AnyHashableSendable("row 1")
    let inside = CancellationKey(namespace: [row], id: AnyHashableSendable("scroll"))
    var machine = ThrottleStateMachine<String>()
    machine.windowOpened(inside, token: 1)
    machine.windowOpened(key, token: 2)
    machine.cancel(namespacePrefix: [row])
    #expect(machine.windows.keys.map { $0 } == [key])
    machine.cancelAll()
    #expect(machine.windows.isEmpty)
  }

  @Test func onlyTheTaskOfTheOpenWindowClosesItWhenItEnds() {
    var machine = ThrottleStateMachine<String>()
    machine.windowOpened(key, token: 1)
    _ = machine.windowElapsed(key)
    machine.windowOpened(key, token: 2)
    // NB: the first window's task ends after the next window opened: it leaves that one open.
    machine.taskEnded(1, key: key)
    #expect(machine.isIdleWindow(2))
    machine.taskEnded(2, key: key)
    #expect(machine.windows.isEmpty)
  }
}
