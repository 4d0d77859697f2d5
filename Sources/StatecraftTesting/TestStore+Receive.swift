import CasePathsCore
import CustomDump
import Statecraft

extension TestStore where Output: Equatable {
  /// Asserts that an effect sent `expected` next, and how it changed the state.
  ///
  /// ```swift
  /// await store.receive(.factResponse("1 is a number")) { $0.fact = "1 is a number" }
  /// ```
  ///
  /// Waits, without a wall-clock delay in the common case, until an output arrives or every
  /// effect has ended; `timeout` bounds the wait for effects that are still running.
  public func receive(
    _ expected: Output,
    timeout: Duration? = nil,
    assert: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      matching: { $0 == expected },
      description: String(customDumping: expected),
      mismatch: { actual in
        diff(expected, actual, format: .proportional).map {
          "\n\n\($0.indent(by: 2))\n\n(Expected: −, Received: +)"
        } ?? ""
      },
      timeout: timeout, assert: assert,
      location: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}

extension TestStore {
  /// Asserts that an effect sent an output of the case at `casePath` next.
  ///
  /// ```swift
  /// await store.receive(\.factResponse) { $0.fact = "1 is a number" }
  /// ```
  public func receive<Value>(
    _ casePath: CaseKeyPath<Output, Value>,
    timeout: Duration? = nil,
    assert: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let casePath = AnyCasePath(casePath)
    await receive(
      matching: { casePath.extract(from: $0) != nil },
      description: "an output of the case \(casePath)", mismatch: { _ in "" },
      timeout: timeout, assert: assert,
      location: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that an effect sent an output of the case `extract` recognizes next:
  /// `await store.receive(case: { if case .loaded(let v) = $0 { v } else { nil } })`.
  public func receive<Value>(
    case extract: @escaping (Output) -> Value?,
    timeout: Duration? = nil,
    assert: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      matching: { extract($0) != nil },
      description: "an output of the expected case", mismatch: { _ in "" },
      timeout: timeout, assert: assert,
      location: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that an effect sent an output matching `predicate` next.
  public func receive(
    where predicate: @escaping (Output) -> Bool,
    timeout: Duration? = nil,
    assert: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      matching: predicate,
      description: "an output matching the predicate", mismatch: { _ in "" },
      timeout: timeout, assert: assert,
      location: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  private func receive(
    matching: @escaping (Output) -> Bool,
    description: String,
    mismatch: (Output) -> String,
    timeout: Duration?,
    assert: ((inout State) throws -> Void)?,
    location: Location
  ) async {
    let timeout = timeout ?? self.timeout
    let exhaustive = exhaustivity == .on
    let arrived = await harness.wait(timeout: timeout) {
      exhaustive
        ? !harness.received.isEmpty
        : harness.received.contains { matching($0.output) }
    }
    guard arrived else {
      let running = harness.runtime.runningEffectCount
      location.fail(
        running > 0
          ? """
          Expected to receive \(description), but received nothing after waiting \(timeout). \
          \(running) \(running == 1 ? "effect is" : "effects are") still running.

          If an effect waits on a clock, advance it (a 'TestClock') before receiving; a longer \
          'timeout' helps work that really takes time.
          """
          : """
          Expected to receive \(description), but received nothing, and no effect is running.
          """)
      return
    }
    if !exhaustive {
      let index = harness.received.firstIndex { matching($0.output) }!
      let skipped = harness.received.prefix(index).map(\.output)
      if !skipped.isEmpty {
        skip(
          "Received \(skipped.count) output(s) before the expected one:\n\n" + describe(skipped),
          location: location)
        state = harness.received[index - 1].state
      }
      harness.received.removeFirst(index)
    }
    let (output, actual) = harness.received.removeFirst()
    guard matching(output) else {
      location.fail(
        """
        Received an unexpected output:

          \(String(customDumping: output))

        Expected \(description).\(mismatch(output))
        """)
      state = actual
      return
    }
    checkState(
      expected: assert, actual: actual, after: "receiving \(String(customDumping: output))",
      location: location)
  }
}
