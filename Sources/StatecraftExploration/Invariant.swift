/// An invariant that did not hold: what ``invariant(_:_:fileID:line:)`` throws.
public struct InvariantViolation: Error, CustomStringConvertible, Sendable {
  /// What the invariant says.
  public let message: String
  /// Where it was checked.
  public let fileID: String
  /// The line where it was checked.
  public let line: UInt

  /// A violation of the invariant `message`.
  public init(_ message: String, fileID: String = "", line: UInt = 0) {
    self.message = message
    self.fileID = fileID
    self.line = line
  }

  /// The message.
  public var description: String { message }
}

/// Throws an ``InvariantViolation`` when `condition` is false: the way to state an invariant
/// in an exploration's `invariants` closure.
///
/// ```swift
/// invariants: { state in
///   try invariant(state.count >= 0, "the count is never negative")
///   try invariant(state.todos.count == state.shownCount, "the counts shown match the list")
/// }
/// ```
///
/// Exploration catches what the closure throws, and what it reports with `reportIssue`, and
/// shrinks the session. Don't use `#expect` there: it fails the test at once, before
/// exploration can shrink the session.
public func invariant(
  _ condition: @autoclosure () throws -> Bool,
  _ message: @autoclosure () -> String,
  fileID: StaticString = #fileID,
  line: UInt = #line
) throws {
  guard try condition() else {
    throw InvariantViolation(message(), fileID: "\(fileID)", line: line)
  }
}
