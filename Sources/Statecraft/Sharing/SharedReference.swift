import CustomDump
import Foundation
import IssueReporting
import Observation

/// What the storage and the test store's tracker know of a shared reference, whatever its
/// value's type.
package protocol AnySharedReference: AnyObject, Sendable {
  /// The type of the value.
  var valueType: Any.Type { get }
  /// The key it is stored under, for messages: `.fileStorage("/tmp/todos.json")`.
  var keyDescription: String { get }
  /// The dump of how the value differs from `expected`, or nil when it does not.
  func difference(from expected: Any) -> String?
  /// Records this value's changes in `tracker`, unless another tracker does.
  func attach(_ tracker: SharedChangeTracker)
  /// The value now, as `Any` (see SharedSnapshot.swift).
  var anyCurrentValue: Any { get }
  /// Writes a value that `anyCurrentValue` returned back (time travel).
  func restore(_ value: Any)
}

/// A value that holds a shared reference: ``Shared``.
package protocol SharedReferenceHolder {
  var anyReference: any AnySharedReference { get }
}

/// The one reference behind every ``Shared`` of a value: the value, its lock, its observers and
/// its persistence.
///
/// NB: `@unchecked Sendable`: every mutable field is read and written under `lock`, and the
/// registrar is thread-safe.
@usableFromInline
package final class SharedReference<Value: Sendable>: AnySharedReference, Observable,
  @unchecked Sendable
{
  // NB: recursive, so that a locked mutation may read the value it mutates
  // (`$count.withLock { $0 += count }`) on the same thread without deadlocking.
  @usableFromInline let lock = NSRecursiveLock()
  @usableFromInline var value: Value
  /// The observed fields, by the identity of the key path read (a key path literal is one
  /// object per call site, so a repeated read hashes one word, not the key path's components).
  @usableFromInline var observed: [ObjectIdentifier: ObservedField<Value>] = [:]
  private var storedError: (any Error)?
  private let isEqual: ((Value, Value) -> Bool)?
  let registrar = ObservationRegistrar()
  package let keyDescription: String
  /// The test store that records this value's changes, if one holds it.
  var tracker: SharedChangeTracker? {
    get { lock.withLock { storedTracker } }
    set { lock.withLock { storedTracker = newValue } }
  }
  @usableFromInline var storedTracker: SharedChangeTracker?
  private let save: (@Sendable (Value) throws -> Void)?
  private var subscription: SharedSubscription?

  init(
    value: Value,
    keyDescription: String,
    tracker: SharedChangeTracker?,
    save: (@Sendable (Value) throws -> Void)? = nil
  ) {
    self.value = value
    self.keyDescription = keyDescription
    self.storedTracker = tracker
    self.save = save
    self.isEqual = equalityCheck(for: Value.self)
  }

  func keep(_ subscription: SharedSubscription) {
    lock.withLock { self.subscription = subscription }
  }

  package var valueType: Any.Type { Value.self }

  package func attach(_ tracker: SharedChangeTracker) {
    lock.withLock { if storedTracker == nil { storedTracker = tracker } }
  }

  package var anyCurrentValue: Any { lock.withLock { value } }

  package func restore(_ value: Any) {
    guard let value = value as? Value else { return }
    mutate { $0 = value }
  }

  // MARK: - Reading

  /// The value, without observing it.
  var currentValue: Value {
    if let tracker, let asserted = tracker.assertedValue(of: self) { return asserted }
    return lock.withLock { value }
  }

  /// Reads `keyPath` of the value and registers the read with Observation.
  ///
  /// NB: inlinable, so that a read (`store.settings.theme`) is specialized where it is written:
  /// unspecialized, the generic key path read and the field lookup looked up type metadata at
  /// every read (B12 measures it against a plain field's read).
  @inlinable
  func read<Member>(_ keyPath: KeyPath<Value, Member>) -> Member {
    lock.lock()
    guard storedTracker == nil else {
      lock.unlock()
      return readWhileTracked(keyPath)
    }
    let member = value[keyPath: keyPath]
    let field = observed[ObjectIdentifier(keyPath)]
    lock.unlock()
    if let field {
      field.access(self)
    } else {
      observe(keyPath, value: member)
    }
    return member
  }

  /// A read of a value that a test store tracks: its asserted value while an assertion runs.
  @usableFromInline
  func readWhileTracked<Member>(_ keyPath: KeyPath<Value, Member>) -> Member {
    if let tracker, let asserted = tracker.assertedValue(of: self) {
      return asserted[keyPath: keyPath]
    }
    lock.lock()
    let member = value[keyPath: keyPath]
    let field = observed[ObjectIdentifier(keyPath)]
    lock.unlock()
    if let field {
      field.access(self)
    } else {
      observe(keyPath, value: member)
    }
    return member
  }

  /// Starts observing the field at `keyPath`, read for the first time, and registers the read.
  @usableFromInline
  func observe<Member>(_ keyPath: KeyPath<Value, Member>, value member: Member) {
    let field = lock.withLock {
      let id = ObjectIdentifier(keyPath)
      if let existing = observed[id] { return existing }
      let field = ObservedField(keyPath: keyPath, value: member)
      observed[id] = field
      return field
    }
    field.access(self)
  }

  /// The member at `keyPath`: the key path that Observation is told about for reads of it.
  subscript<Member>(field keyPath: KeyPath<Value, Member>) -> Member {
    lock.withLock { value[keyPath: keyPath] }
  }

  var error: (any Error)? {
    registrar.access(self, keyPath: \.error)
    return lock.withLock { storedError }
  }

  // MARK: - Writing

  /// Mutates the value under the lock, then saves it and tells its observers.
  func mutate<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    if let tracker, tracker.isAsserting {
      var asserted = tracker.assertedValue(of: self) ?? lock.withLock { value }
      let result = try body(&asserted)
      tracker.expect(asserted, for: self)
      return result
    }
    lock.lock()
    let previous = value
    let result: Result
    do {
      result = try body(&value)
    } catch {
      lock.unlock()
      throw error
    }
    let current = value
    lock.unlock()
    if let isEqual, isEqual(previous, current) { return result }
    didChange(from: previous, to: current, save: true)
    return result
  }

  /// Takes a value changed outside the process: every holder sees it; nothing is saved.
  func receive(_ newValue: Value) {
    let previous = lock.withLock {
      defer { value = newValue }
      return value
    }
    if let isEqual, isEqual(previous, newValue) { return }
    didChange(from: previous, to: newValue, save: false)
  }

  /// Keeps and reports a failed load or save.
  func fail(_ error: any Error) {
    lock.withLock { storedError = error }
    reportIssue(Diagnostics.sharedPersistenceFailed(key: keyDescription, error: error))
    onMain { $0.publishError() }
  }

  /// Tells the observers of ``error``: like a change of the value, it may come outside any
  /// batch of the stores that read it (a write that failed after its delay), so their `observe`
  /// closures run once it is told.
  @MainActor
  private func publishError() {
    SharedChangeHooks.isPublishing = true
    registrar.willSet(self, keyPath: \.error)
    registrar.didSet(self, keyPath: \.error)
    SharedChangeHooks.isPublishing = false
    SharedChangeHooks.runScheduledObservations()
  }

  private func didChange(from previous: Value, to current: Value, save shouldSave: Bool) {
    tracker?.record(self, previous: previous)
    if shouldSave, let save {
      do {
        try save(current)
        if lock.withLock({ storedError != nil }) {
          lock.withLock { storedError = nil }
          onMain { $0.publishError() }
        }
      } catch {
        fail(error)
      }
    }
    onMain { $0.publish() }
  }

  /// Runs `body` on the main actor: now when this is the main thread, else soon.
  private func onMain(_ body: @escaping @MainActor @Sendable (SharedReference) -> Void) {
    if isOnMainActor() {
      MainActor.assumeIsolated { body(self) }
    } else {
      Task { @MainActor in body(self) }
    }
  }

  /// Tells the observers of the fields whose values changed, and forgets them until they are
  /// read again.
  @MainActor
  private func publish() {
    let changed: [ObservedField<Value>] = lock.withLock {
      guard !observed.isEmpty else { return [] }
      var changed: [(ObjectIdentifier, ObservedField<Value>)] = []
      for (keyPath, field) in observed where field.hasChanged(value) {
        changed.append((keyPath, field))
      }
      for (keyPath, _) in changed { observed[keyPath] = nil }
      return changed.map(\.1)
    }
    SharedChangeHooks.isPublishing = true
    for field in changed { field.notify(self) }
    SharedChangeHooks.isPublishing = false
    SharedChangeHooks.runScheduledObservations()
  }

  // MARK: - Testing

  package func difference(from expected: Any) -> String? {
    guard let expected = expected as? Value else { return "(a value of another type)" }
    let current = lock.withLock { value }
    if let isEqual, isEqual(expected, current) { return nil }
    return diff(expected, current) ?? (isEqual == nil ? nil : "\(expected) ≠ \(current)")
  }
}

/// A field of a shared value that a reader observed, with the value it saw.
@usableFromInline
struct ObservedField<Value: Sendable> {
  /// Keeps the key path object alive while its identity keys the field.
  let keyPath: AnyKeyPath
  let hasChanged: (Value) -> Bool
  @usableFromInline let access: (SharedReference<Value>) -> Void
  let notify: (SharedReference<Value>) -> Void

  init<Member>(keyPath: KeyPath<Value, Member>, value: Member) {
    self.keyPath = keyPath
    let referenceKeyPath = \SharedReference<Value>.[field: keyPath]
    self.access = { $0.registrar.access($0, keyPath: referenceKeyPath) }
    self.notify = {
      $0.registrar.willSet($0, keyPath: referenceKeyPath)
      $0.registrar.didSet($0, keyPath: referenceKeyPath)
    }
    if let isEqual = equalityCheck(for: Member.self) {
      self.hasChanged = { !isEqual($0[keyPath: keyPath], value) }
    } else {
      self.hasChanged = { _ in true }
    }
  }
}

/// How a change of a shared value reaches the `observe` closures of the stores that read it.
///
/// A shared value can change outside the batches of a store that reads it (another store wrote
/// it, or a locked mutation). Its observers are notified at once, and the `observe` closures
/// that this schedules run from a task on the main actor, so never inside a batch.
@MainActor
enum SharedChangeHooks {
  static var isPublishing = false
  private static var runtimes: [ObserverRegistry] = []

  static func scheduled(in runtime: ObserverRegistry) {
    if !runtimes.contains(where: { $0 === runtime }) { runtimes.append(runtime) }
  }

  static func runScheduledObservations() {
    guard !runtimes.isEmpty else { return }
    let runtimes = self.runtimes
    self.runtimes.removeAll()
    Task { @MainActor in
      for runtime in runtimes { runtime.runScheduledObservations() }
    }
  }
}
