import CustomDump
import Statecraft

extension TestStore {
  /// Waits for every effect to end, then checks that nothing was left unasserted: received
  /// actions and routes, a state change no assertion covered, and effects still running after
  /// `timeout`. A feedback system's loop is stopped after the wait, so the events of the
  /// feedbacks still in flight must be received too.
  ///
  /// A cancelled effect is over: it is not waited for, even if its task has not unwound yet. A
  /// throttle window that holds nothing back is not an effect either.
  ///
  /// A test store that is released without `finish()` makes the same checks, without waiting.
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    guard !harness.isFinished else { return }
    _ = await harness.wait(timeout: timeout ?? self.timeout) {
      harness.runtime.effects.unskippedEffectCount == 0
    }
    let running = harness.runtime.effects.unskippedEffectCount
    harness.stop()
    harness.isFinished = true
    harness.checkEnd(
      running: running,
      location: CallSite(fileID: fileID, filePath: filePath, line: line, column: column),
      waited: true)
    harness.teardown()
  }

  /// Drops the actions received so far without asserting them, after letting the actions
  /// effects send that are already due arrive.
  ///
  /// - Parameters:
  ///   - strict: Fail when there is nothing to skip (the default, as in TCA); pass `false`
  ///     where there may be none.
  ///   - fileID: The file where a failure is reported; leave the default.
  ///   - filePath: The file path where a failure is reported; leave the default.
  ///   - line: The line where a failure is reported; leave the default.
  ///   - column: The column where a failure is reported; leave the default.
  public func skipReceivedActions(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await harness.settle()
    let location = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let last = harness.received.last else {
      if strict {
        location.report(
          "There were no received actions to skip.")
      }
      return
    }
    if exhaustivity == .off(showSkippedAssertions: true) {
      location.warn(
        "Skipped receiving \(harness.received.count) "
          + "\(harness.received.count == 1 ? "action" : "actions"):\n\n"
          + describe(harness.received.map(\.action)))
    }
    if !last.isStale { assertedState = last.after }
    harness.received.removeAll()
  }

  /// Stops tracking the effects still running, so the end of the test doesn't fail on them, as
  /// in TCA: they keep running, and the actions they send later must still be received.
  ///
  /// To stop them instead, send the action that cancels them, or cancel the task `send`
  /// returned.
  ///
  /// - Parameters:
  ///   - strict: Fail when no effect is running (the default, as in TCA); pass `false` where
  ///     there may be none.
  ///   - fileID: The file where a failure is reported; leave the default.
  ///   - filePath: The file path where a failure is reported; leave the default.
  ///   - line: The line where a failure is reported; leave the default.
  ///   - column: The column where a failure is reported; leave the default.
  public func skipInFlightEffects(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await harness.settle()
    let skipped = harness.runtime.effects.skipActiveEffects()
    let location = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard skipped > 0 else {
      if strict {
        location.report(
          "There were no in-flight effects to skip.")
      }
      return
    }
    if exhaustivity == .off(showSkippedAssertions: true) {
      location.warn("Skipped \(skipped) in-flight \(skipped == 1 ? "effect" : "effects").")
    }
  }
}

extension Harness {
  func checkEnd(running: Int, location: CallSite, waited: Bool) {
    let actions = received.map(\.action)
    let routes = log.routes
    if !actions.isEmpty {
      skip(
        """
        The store received \(actions.count) unexpected \
        \(actions.count == 1 ? "action" : "actions"):

        \(describe(actions))

        Assert them with 'receive', or call 'skipReceivedActions()'.
        """, location: location)
    }
    if !routes.isEmpty {
      skip(
        """
        The reactor published \(routes.count) \(routes.count == 1 ? "route" : "routes") that \
        the test never received:

        \(describe([], routes: routes))

        Assert them with 'receive(route:)'.
        """, location: location)
    }
    // NB: a shared value changed after the last assertion (by an effect's locked mutation, by
    // another store) fails an exhaustive store as a state change does.
    if exhaustivity == .on, actions.isEmpty {
      for failure in sharing.tracker.check(exhaustive: true) { location.report(failure) }
    }
    // NB: whatever changed the state (an effect, a delayed action, a subscription), a change
    // that no assertion and no unreceived action accounts for fails an exhaustive store.
    let accounted = received.last(where: { !$0.isStale })?.after ?? assertedState
    if let difference = stateDifference(accounted, currentState) {
      skip(
        """
        The state changed after the last assertion, and the test never asserted the change:

        \(difference.indent(by: 2))

        (Expected: −, Actual: +)

        Assert it with 'receive' or 'store.assert { … }'.
        """, location: location)
    }
    if running > 0 {
      skip(
        """
        \(running) \(running == 1 ? "effect is" : "effects are") still running at the end of \
        the test\(waited ? "" : " (the test store was released without 'finish()')").

        Every effect must end before the test does: advance the clock it waits on, send the \
        action that cancels it, or call 'skipInFlightEffects()'.
        """, location: location)
    }
  }
}
