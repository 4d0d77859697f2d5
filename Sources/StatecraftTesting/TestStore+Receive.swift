import CasePathsCore
import CustomDump
import Statecraft

extension TestStore where ReceivedAction: Equatable {
  /// Asserts that an effect sent `expected` next, and how it changed the state.
  ///
  /// ```swift
  /// await store.receive(.factResponse("1 is a number")) { $0.fact = "1 is a number" }
  /// ```
  ///
  /// Waits, without a wall-clock delay in the common case, until an action arrives or every
  /// effect has ended; `timeout` bounds the wait for effects that are still running.
  public func receive(
    _ expected: ReceivedAction,
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
      mismatch: { receivedDifference(expected: expected, received: $0) },
      timeout: timeout, assert: assert,
      location: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}

extension TestStore {
  /// Asserts that an effect sent the action of the case at `casePath` with `value` next:
  /// `await store.receive(\.factResponse, "1 is a number") { $0.fact = "1 is a number" }`.
  public func receive<Value: Equatable>(
    _ casePath: CaseKeyPath<ReceivedAction, Value>,
    _ value: Value,
    timeout: Duration? = nil,
    assert: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let casePath = AnyCasePath(casePath)
    await receive(
      matching: { casePath.extract(from: $0) == value },
      description: "\(String(customDumping: casePath.embed(value)))",
      mismatch: { actual in
        casePath.extract(from: actual).map { receivedDifference(expected: value, received: $0) }
          ?? ""
      },
      timeout: timeout, assert: assert,
      location: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that an effect sent an action of the case at `casePath` next.
  ///
  /// ```swift
  /// await store.receive(\.factResponse) { $0.fact = "1 is a number" }
  /// ```
  public func receive<Value>(
    _ casePath: CaseKeyPath<ReceivedAction, Value>,
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
      description: "an action of the case \(casePath)", mismatch: { _ in "" },
      timeout: timeout, assert: assert,
      location: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that an effect sent an action of the case `extract` recognizes next:
  /// `await store.receive(case: { if case .loaded(let v) = $0 { v } else { nil } })`.
  public func receive<Value>(
    case extract: @escaping (ReceivedAction) -> Value?,
    timeout: Duration? = nil,
    assert: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      matching: { extract($0) != nil },
      description: "an action of the expected case", mismatch: { _ in "" },
      timeout: timeout, assert: assert,
      location: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that an effect sent an action matching `predicate` next.
  public func receive(
    where predicate: @escaping (ReceivedAction) -> Bool,
    timeout: Duration? = nil,
    assert: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      matching: predicate,
      description: "an action matching the predicate", mismatch: { _ in "" },
      timeout: timeout, assert: assert,
      location: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  private func receive(
    matching: @escaping (ReceivedAction) -> Bool,
    description: String,
    mismatch: (ReceivedAction) -> String,
    timeout: Duration?,
    assert: ((inout State) throws -> Void)?,
    location: CallSite
  ) async {
    let timeout = timeout ?? self.timeout
    let exhaustive = exhaustivity == .on
    let arrived = await harness.wait(timeout: timeout) {
      exhaustive
        ? !harness.received.isEmpty
        : harness.received.contains { matching($0.action) }
    }
    guard arrived else {
      let running = harness.runtime.effects.activeEffectCount
      location.report(
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
      let index = harness.received.firstIndex { matching($0.action) }!
      let skipped = harness.received.prefix(index).map(\.action)
      if !skipped.isEmpty {
        skip(
          "Received \(skipped.count) \(skipped.count == 1 ? "action" : "actions") before the "
            + "expected one:\n\n" + describe(skipped),
          location: location)
      }
      harness.received.removeFirst(index)
    }
    let received = harness.received.removeFirst()
    // NB: an action left unasserted by a later `send` is checked against the state it was
    // reduced from: that send already asserted the state after it.
    let base = received.isStale ? received.before : (exhaustive ? assertedState : received.before)
    guard matching(received.action) else {
      location.report(
        """
        Received unexpected action:

          \(String(customDumping: received.action))

        Expected \(description).\(mismatch(received.action))
        """)
      if !received.isStale { assertedState = received.after }
      return
    }
    checkState(
      base: base, expected: assert, actual: received.after,
      after: "receiving \(String(customDumping: received.action))", location: location)
    if !received.isStale { assertedState = received.after }
  }
}

extension TestStore {
  /// Asserts that the reactor published `expected` next, through `Reactor.route(for:)`.
  ///
  /// ```swift
  /// await store.send(.rowTapped(7))
  /// store.receive(route: AppRoute.detail(id: 7))
  /// ```
  ///
  /// Routes are published while the action that leads to them is reduced, so they are there
  /// when `send` returns. An exhaustive store fails on a route never received.
  public func receive<Route: Equatable & Sendable>(
    route expected: Route,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let location = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard !harness.log.routes.isEmpty else {
      location.report(
        """
        Expected to receive the route \(String(customDumping: expected)), but no route was \
        published.
        """)
      return
    }
    if exhaustivity != .on,
      let index = harness.log.routes.firstIndex(where: { ($0 as? Route) == expected })
    {
      harness.log.routes.removeFirst(index)
    }
    let route = harness.log.routes.removeFirst()
    guard let actual = route as? Route, actual == expected else {
      location.report(
        """
        Received an unexpected route:

          \(String(customDumping: route))

        Expected \(String(customDumping: expected)).
        """)
      return
    }
  }
}

/// The diff between an expected and a received action, for a failure message; empty when they
/// dump alike.
func receivedDifference<Value>(expected: Value, received: Value) -> String {
  diff(expected, received, format: .proportional).map {
    "\n\n\($0.indent(by: 2))\n\n(Expected: −, Received: +)"
  } ?? ""
}
