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

/// What an exploration checks after every step, as a value with a name: the value that both
/// `explore` and the test it writes for a failure call.
///
/// ```swift
/// extension Cart {
///   static let invariants = Invariants<State>("Cart.invariants") { state in
///     try invariant(state.items.count <= Cart.limit, "the cart holds at most the limit")
///   }
/// }
///
/// await explore(
///   initialState: Cart.State(), reducer: { Cart() }, actions: actions,
///   checking: Cart.invariants)
/// ```
///
/// The test that exploration writes for a failure replays the shrunk steps with
/// ``replay(initialState:reducer:steps:sessionEnd:withDependencies:fileID:filePath:line:column:checking:)``
/// and `checking: Cart.invariants`: it checks what the exploration checked, so it fails while
/// the bug is there and passes once it is fixed. `name` is how that test spells the value: an
/// expression that reaches it from the test's file.
public struct Invariants<State>: Sendable {
  /// The expression that names this value in a generated test: `Cart.invariants`.
  public var name: String
  /// The check: throws (``invariant(_:_:fileID:line:)``) or reports an issue when the state is
  /// wrong.
  public var check: @Sendable (State) throws -> Void

  /// Invariants named `name` (the expression that reaches them from a test), checked by `check`.
  public init(_ name: String, _ check: @escaping @Sendable (State) throws -> Void) {
    self.name = name
    self.check = check
  }
}
