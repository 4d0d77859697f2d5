import CustomDump
import Statecraft

extension TestStore {
  /// Sends an action and asserts how it changed the state.
  ///
  /// ```swift
  /// await store.send(.increment) { $0.count = 1 }
  /// ```
  ///
  /// `assert` receives the state as the last assertion left it and must make it equal to the
  /// state after the action; a mismatch fails with a diff (expected lines `−`, actual `+`).
  /// Outputs received earlier must have been asserted first (when exhaustive).
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
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    if !harness.received.isEmpty {
      let outputs = harness.received.map(\.output)
      skip(
        """
        Must handle \(outputs.count) received \(outputs.count == 1 ? "output" : "outputs") \
        before sending an action:

        \(describe(outputs))

        Assert them with 'receive', or call 'skipReceivedActions()'.
        """, location: location)
      state = harness.received.last?.state ?? state
      harness.received.removeAll()
    }
    let (task, actual) = harness.send(action)
    checkState(
      expected: assert, actual: actual, after: "sending \(String(customDumping: action))",
      location: location)
    return task
  }

  /// Asserts a state change against `actual`, exhaustively or not.
  func checkState(
    expected update: ((inout State) throws -> Void)?,
    actual: State,
    after what: String,
    location: Location
  ) {
    defer { state = actual }
    var expected = state
    do {
      try update?(&expected)
    } catch {
      location.fail("The state assertion threw an error: \(error)")
      return
    }
    guard let difference = diff(expected, actual, format: .proportional) else { return }
    switch exhaustivity {
    case .on:
      let message =
        update == nil
        ? "The state changed after \(what), but the test asserted no change:"
        : "The state after \(what) does not match the assertion:"
      location.fail(
        """
        \(message)

        \(difference.indent(by: 2))

        (Expected: −, Actual: +)
        """)
    case .off(let showSkippedAssertions):
      // NB: not exhaustive: apply the assertion to the actual state; only what it set is checked.
      var partial = actual
      try? update?(&partial)
      if let difference = diff(partial, actual, format: .proportional) {
        location.fail(
          """
          The state after \(what) does not match the assertion:

          \(difference.indent(by: 2))

          (Expected: −, Actual: +)
          """)
      } else if showSkippedAssertions {
        location.warn(
          """
          Skipped asserting a state change after \(what):

          \(difference.indent(by: 2))

          (Expected: −, Actual: +)
          """)
      }
    }
  }

  func skip(_ message: String, location: Location) {
    harness.skip(message, location: location)
  }

  func describe(_ outputs: [Output]) -> String {
    harness.describe(outputs)
  }
}

extension Harness {
  /// Reports what an exhaustive test store would fail on: a failure when exhaustive, a warning
  /// when skipped assertions are shown, nothing otherwise.
  func skip(_ message: String, location: Location) {
    switch exhaustivity {
    case .on: location.fail(message)
    case .off(showSkippedAssertions: true): location.warn("Skipped: " + message)
    case .off(showSkippedAssertions: false): break
    }
  }

  func describe(_ outputs: [Output]) -> String {
    outputs.map { "  • " + String(customDumping: $0) }.joined(separator: "\n")
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
