import Statecraft

extension TestStore {
  /// Waits for every effect to end, then checks that nothing was left unasserted: received
  /// outputs, and effects still running after `timeout`. Stops a feedback loop first.
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
    harness.stop()
    _ = await harness.wait(timeout: timeout ?? self.timeout) {
      harness.runtime.runningEffectCount == 0
    }
    harness.isFinished = true
    harness.checkEnd(
      location: Location(fileID: fileID, filePath: filePath, line: line, column: column),
      waited: true)
    harness.teardown()
  }

  /// Drops the outputs received so far without asserting them.
  public func skipReceivedActions(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    guard let last = harness.received.last else { return }
    state = last.state
    harness.received.removeAll()
  }

  /// Cancels the effects still running, so the end of the test doesn't fail on them.
  public func skipInFlightEffects() {
    harness.runtime.cancelAll()
  }
}

extension Harness {
  func checkEnd(location: Location, waited: Bool) {
    let outputs = received.map(\.output)
    if !outputs.isEmpty {
      skip(
        """
        The store received \(outputs.count) unexpected \
        \(outputs.count == 1 ? "output" : "outputs"):

        \(describe(outputs))

        Assert them with 'receive', or call 'skipReceivedActions()'.
        """, location: location)
    }
    let running = runtime.runningEffectCount
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
