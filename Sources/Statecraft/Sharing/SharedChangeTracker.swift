import Foundation

/// Records the changes made to shared values, so that a test store can require each to be
/// asserted like a state change.
///
/// Between two assertions the tracker keeps, for each shared value that changed, the value it
/// had at the last assertion. While a test's assertion closure runs
/// (``assert(_:fileID:filePath:line:column:)``, or a test store's `send` closure), writes to a
/// tracked shared value go to the *expected* value instead of the real one, and reads return it.
/// The expected values are then compared with the real ones.
///
/// A test store has one; ``withSharedChangeTracking(_:)`` makes one for code outside a store.
// NB: `@unchecked Sendable`: every field is read and written under `lock`.
public final class SharedChangeTracker: @unchecked Sendable {
  private struct Change {
    let reference: any AnySharedReference
    /// The value at the last assertion, if the value changed since.
    var snapshot: Any?
    /// What the assertion closure made of the value, if it wrote it.
    var expected: Any?
  }

  private let lock = NSLock()
  private var changes: [ObjectIdentifier: Change] = [:]
  private var asserting = false
  /// The references this tracker started tracking when they changed inside
  /// `withSharedChangeTracking`, to stop tracking them when it returns.
  private var adopted: [any AnySharedReference] = []

  /// The tracker of the innermost `withSharedChangeTracking`.
  @TaskLocal static var scoped: SharedChangeTracker?

  /// Checks the shared values that changed since the last assertion against what `body` writes
  /// to them: inside `body`, a shared value reads as it was at the last assertion (with what
  /// `body` wrote), and writes go to that expected value, not to the real one. Each value that
  /// `body` wrote and that doesn't match the real one is reported. The next assertion starts
  /// from the values now.
  ///
  /// ```swift
  /// withSharedChangeTracking { tracker in
  ///   count.wrappedValue += 1            // the code under test
  ///   tracker.assert { count.wrappedValue = 1 }
  /// }
  /// ```
  public func assert(
    _ body: () throws -> Void,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) rethrows {
    try withAsserting(body)
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    for failure in check(exhaustive: false) { location.report(failure) }
  }

  /// Records the changes of `reference` from now on, unless another tracker does.
  func adopt(_ reference: any AnySharedReference) {
    lock.withLock { adopted.append(reference) }
  }

  /// Stops tracking the references that this tracker adopted.
  func releaseAdopted() {
    let adopted = lock.withLock {
      defer { self.adopted.removeAll() }
      return self.adopted
    }
    for reference in adopted { reference.unmarkForReplay(self) }
  }

  package init() {}

  /// Records the changes of the shared values that `value` holds, at any depth (a test store's
  /// initial state, whose shared values may have been made before the test store).
  package func track(_ value: Any) {
    if let holder = value as? any SharedReferenceHolder {
      holder.anyReference.attach(self)
      return
    }
    let mirror = Mirror(reflecting: value)
    for child in mirror.children { track(child.value) }
  }

  /// Whether an assertion closure is running.
  var isAsserting: Bool { lock.withLock { asserting } }

  /// Runs a test's assertion closure: writes to shared values go to their expected values.
  package func withAsserting<R>(_ body: () throws -> R) rethrows -> R {
    lock.withLock { asserting = true }
    defer { lock.withLock { asserting = false } }
    return try body()
  }

  /// Records that `reference` changed from `previous`, unless it had already changed since the
  /// last assertion.
  func record<Value>(_ reference: SharedReference<Value>, previous: Value) {
    lock.withLock {
      let id = ObjectIdentifier(reference)
      if changes[id]?.snapshot != nil { return }
      changes[id, default: Change(reference: reference)].snapshot = previous
    }
  }

  /// While asserting: the expected value of `reference` (what the closure wrote, else the value
  /// at the last assertion); nil when not asserting or when it did not change.
  func assertedValue<Value>(of reference: SharedReference<Value>) -> Value? {
    lock.withLock {
      guard asserting, let change = changes[ObjectIdentifier(reference)] else { return nil }
      return (change.expected ?? change.snapshot) as? Value
    }
  }

  /// While asserting: the closure wrote `value` to `reference`.
  func expect<Value>(_ value: Value, for reference: SharedReference<Value>) {
    lock.withLock {
      changes[ObjectIdentifier(reference), default: Change(reference: reference)].expected = value
    }
  }

  /// Forgets what assertion closures wrote, to run one again.
  package func discardExpectations() {
    lock.withLock {
      for id in Array(changes.keys) {
        changes[id]?.expected = nil
        if changes[id]?.snapshot == nil { changes[id] = nil }
      }
    }
  }

  /// Whether a shared value changed since the last assertion.
  package var hasChanges: Bool {
    lock.withLock { changes.values.contains { $0.snapshot != nil } }
  }

  /// The failures of the last step: each changed value that was not asserted (when
  /// `exhaustive`), and each asserted value that is not what the closure expected. Forgets the
  /// changes: the next step starts from the values now.
  package func check(exhaustive: Bool) -> [String] {
    let changes = lock.withLock {
      defer { self.changes.removeAll() }
      return self.changes.values
    }
    var failures: [String] = []
    for change in changes.sorted(by: { $0.reference.keyDescription < $1.reference.keyDescription })
    {
      if let expected = change.expected {
        if let difference = change.reference.difference(from: expected) {
          failures.append(
            Self.message(
              "A shared value does not match the assertion:", change.reference, difference))
        }
      } else if exhaustive, let snapshot = change.snapshot,
        let difference = change.reference.difference(from: snapshot)
      {
        failures.append(
          Self.message(
            "A shared value changed, but the test asserted no change:", change.reference,
            difference))
      }
    }
    return failures
  }

  private static func message(
    _ headline: String, _ reference: any AnySharedReference, _ difference: String
  ) -> String {
    let indented = difference.split(separator: "\n", omittingEmptySubsequences: false)
      .map { "  " + $0 }.joined(separator: "\n")
    // NB: a value made with `Shared(value:)` has no key to declare it by.
    let keyed = !reference.keyDescription.hasPrefix("(")
    return """
      \(headline) Shared<\(reference.valueType)>\(reference.keyDescription)

      \(indented)

      (Expected: −, Actual: +) Assert it in the closure of the 'send' or 'receive' that changed \
      it: through the state when the state holds it ('$0.$items.withLock { $0.append(item) }'), \
      or through any 'Shared' of the same \(keyed ? "key, such as one the test declared ('@Shared(\(reference.keyDescription)) var items', then '$items.withLock { ... }' in the closure)" : "value the test holds ('$items.withLock { ... }' in the closure)").
      """
  }
}

/// Runs `body` with the changes of shared values tracked, so that it can assert them with
/// ``SharedChangeTracker/assert(_:fileID:filePath:line:column:)``, as a test store asserts them
/// after a `send`: for code that changes shared values outside a store (a model, a helper).
///
/// ```swift
/// @Shared(.inMemory("settings")) var settings = Settings()
/// withSharedChangeTracking { tracker in
///   settings.isOn.toggle()
///   tracker.assert { settings.isOn = true }
/// }
/// ```
///
/// A shared value is tracked from its first change inside `body` (unless a test store tracks it
/// already) until `body` returns.
public func withSharedChangeTracking<R>(_ body: (SharedChangeTracker) throws -> R) rethrows -> R {
  let tracker = SharedChangeTracker()
  defer { tracker.releaseAdopted() }
  return try SharedChangeTracker.$scoped.withValue(tracker) { try body(tracker) }
}
