import CasePathsCore
import CustomDump
import Dependencies
import Statecraft

extension TestStore {
  /// Sends an action and asserts how it changed the state.
  ///
  /// ```swift
  /// await store.send(.increment) { $0.count = 1 }
  /// ```
  ///
  /// `assert` receives the state as the last assertion left it and must make it equal to the
  /// state after the action; a mismatch fails with a diff (expected lines `−`, actual `+`). An
  /// `assert` closure given for an action that changed nothing fails too: omit it when no change
  /// is expected.
  ///
  /// Actions received earlier must have been asserted first (when exhaustive): otherwise the
  /// send fails, and the actions stay to be received. A store that is not exhaustive first lets
  /// the actions effects send that are already due apply, and drops what it did not assert. Before it
  /// returns, `send` lets the effects the action started run until they wait (as TCA's does),
  /// so that what they send at once is there to receive.
  ///
  /// - Returns: The action's task, to await or cancel its effects.
  @discardableResult
  public func send(
    _ action: Action,
    assert: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> StoreTask {
    let location = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard !harness.isDismissed else {
      location.report(
        """
        Can't send an action to a dismissed test store: the feature dismissed itself, so \
        \(String(customDumping: action)) was not sent.

        Assert 'store.isDismissed' as the test's last step, or make a new test store.
        """)
      return StoreTask(nil)
    }
    if exhaustivity != .on { await harness.settle() }
    var base = assertedState
    if !harness.received.isEmpty {
      let actions = harness.received.map(\.action)
      skip(
        """
        Must handle \(actions.count) received \(actions.count == 1 ? "action" : "actions") \
        before sending an action:

        \(describe(actions))

        Assert them with 'receive' (they can still be received), or call \
        'skipReceivedActions()'.
        """, location: location)
      // NB: actions a send already failed on were asserted past; the newer ones were not.
      if let last = harness.received.last(where: { !$0.isStale }) { base = last.after }
      if exhaustivity == .on {
        // NB: as in TCA, what was not asserted stays receivable; receiving it later checks only
        // the change it made, since this send asserts the state after it.
        for index in harness.received.indices { harness.received[index].isStale = true }
      } else {
        harness.received.removeAll()
      }
    }
    if exhaustivity != .on { base = harness.currentState }
    let (task, actual) = harness.send(action)
    checkState(
      base: base, expected: assert, actual: actual,
      after: "sending \(String(customDumping: action))", location: location)
    assertedState = actual
    await harness.settle()
    return task
  }

  /// Sends the action of the case at `casePath` with `value`:
  /// `await store.send(\.path.push, (id, .detail))`.
  @discardableResult
  public func send<Value>(
    _ casePath: CaseKeyPath<Action, Value>,
    _ value: Value,
    assert: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> StoreTask {
    await send(
      AnyCasePath(casePath).embed(value), assert: assert,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Sends the action of a case without a payload, by its case key path:
  /// `await store.send(\.refresh)`.
  @discardableResult
  public func send(
    _ casePath: CaseKeyPath<Action, Void>,
    assert: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> StoreTask {
    await send(
      AnyCasePath(casePath).embed(()), assert: assert,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Asserts the store's current state outside a `send` or a `receive`: `update` turns the
  /// state as the last assertion left it into the current state.
  ///
  /// ```swift
  /// store.exhaustivity = .off
  /// await clock.advance(by: .seconds(3))
  /// store.assert { $0.ticks = 3 }
  /// ```
  ///
  /// The current state includes the changes of actions not yet received; they stay receivable,
  /// and receiving one then checks only the change it made. Unlike `send` and `receive`, a
  /// closure that changes nothing is fine here, as in TCA.
  public func assert(
    _ update: @escaping (_ state: inout State) throws -> Void,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let actual = harness.currentState
    checkState(
      base: assertedState, expected: update, actual: actual, after: "the last assertion",
      location: CallSite(fileID: fileID, filePath: filePath, line: line, column: column),
      requiresChange: false)
    for index in harness.received.indices { harness.received[index].isStale = true }
    assertedState = actual
  }

  /// Asserts a state change from `base` to `actual`, exhaustively or not.
  func checkState(
    base: State,
    expected update: ((inout State) throws -> Void)?,
    actual: State,
    after what: String,
    location: CallSite,
    requiresChange: Bool = true
  ) {
    let tracker = harness.sharing.tracker
    let sharedChanged = tracker.hasChanges
    // NB: the shared values a test store checks are asserted after the state, whatever the
    // state's outcome, so that the next step starts from their values now.
    defer { checkSharedChanges(location: location) }
    /// Runs the assertion closure on `state`. While it runs, writes to shared values go to their
    /// expected values, and the store's dependency values are in force, so that an assertion
    /// reads `@Dependency` as the reducer did; an element it pushes takes no id from the store's
    /// counter, and one it writes at an id names the element the store pushed there.
    func apply(to state: inout State) -> Bool {
      var dependencies = harness.dependencies
      dependencies.stackElementID = dependencies.stackElementID.copy()
      do {
        try DependencyValues.$_current.withValue(dependencies) {
          try TestAssertion.$isRunning.withValue(true) {
            try tracker.withAsserting { try update?(&state) }
          }
        }
        return true
      } catch {
        location.report("The state assertion threw an error: \(error)")
        return false
      }
    }
    switch exhaustivity {
    case .on:
      var expected = base
      guard apply(to: &expected) else { return }
      if let difference = stateDifference(expected, actual) {
        let message =
          update == nil
          ? "The state changed after \(what), but the test asserted no change:"
          : "The state after \(what) does not match the assertion:"
        location.report(
          """
          \(message)

          \(difference.indent(by: 2))

          (Expected: −, Actual: +)
          """)
      } else if requiresChange, update != nil, !sharedChanged,
        stateDifference(base, actual) == nil
      {
        failNoChange(after: what, location: location)
      }
    case .off(let showSkippedAssertions):
      // NB: not exhaustive: the assertion runs once, on the actual state, as TCA's does; only
      // what it set is checked. (Only to show skipped assertions does it run again, on the state
      // the last assertion left.)
      var partial = actual
      tracker.discardExpectations()
      guard apply(to: &partial) else { return }
      if let difference = stateDifference(partial, actual) {
        location.report(
          """
          The state after \(what) does not match the assertion:

          \(difference.indent(by: 2))

          (Expected: −, Actual: +)
          """)
      } else if requiresChange, update != nil, !sharedChanged,
        stateDifference(base, actual) == nil
      {
        failNoChange(after: what, location: location)
      } else if showSkippedAssertions {
        var expected = base
        tracker.discardExpectations()
        _ = apply(to: &expected)
        if let difference = stateDifference(expected, actual) {
          location.warn(
            """
            Skipped asserting a state change after \(what):

            \(difference.indent(by: 2))

            (Expected: −, Actual: +)
            """)
        }
      }
    }
  }

  /// Fails for each shared value that changed since the last assertion without being asserted
  /// (when exhaustive), and for each asserted one that is not what the assertion said.
  func checkSharedChanges(location: CallSite) {
    let exhaustive = exhaustivity == .on
    for failure in harness.sharing.tracker.check(exhaustive: exhaustive) {
      location.report(failure)
    }
  }

  /// A closure described a change, but the state is what it was. As in TCA, an exhaustive store
  /// fails; a non-exhaustive one treats it as a skipped assertion (a partial assertion may
  /// restate a value that did not change).
  private func failNoChange(after what: String, location: CallSite) {
    skip(
      """
      Expected state to change, but no change occurred.

      The assertion closure given for \(what) describes a change, but the state is the same as \
      before. If no change is expected, omit the closure.
      """, location: location)
  }

  func skip(_ message: String, location: CallSite) {
    harness.skip(message, location: location)
  }

  func describe(_ actions: [ReceivedAction], routes: [any Sendable] = []) -> String {
    harness.describe(actions, routes: routes)
  }
}

extension Harness {
  /// Reports what an exhaustive test store would fail on: a failure when exhaustive, a warning
  /// when skipped assertions are shown, nothing otherwise.
  func skip(_ message: String, location: CallSite) {
    switch exhaustivity {
    case .on: location.report(message)
    case .off(showSkippedAssertions: true): location.warn("Skipped: " + message)
    case .off(showSkippedAssertions: false): break
    }
  }

  func describe(_ actions: [ReceivedAction], routes: [any Sendable] = []) -> String {
    (actions.map { "  • " + String(customDumping: $0) }
      + routes.map { "  • route " + String(customDumping: $0) })
      .joined(separator: "\n")
  }
}

extension String {
  func indent(by spaces: Int) -> String {
    let padding = String(repeating: " ", count: spaces)
    return split(separator: "\n", omittingEmptySubsequences: false)
      .map { padding + $0 }
      .joined(separator: "\n")
  }
}
