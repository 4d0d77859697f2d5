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
  /// The number of changes the value went through since it was made: a debugging tool tells
  /// from it whether a shared value changed between two moments.
  var changeCount: UInt64 { get }
  /// Sends reads down the path that looks for a replay's copy (see SharedReplay.swift), unless
  /// they go there already; true when it did.
  func markForReplay(_ marker: SharedChangeTracker) -> Bool
  func unmarkForReplay(_ marker: SharedChangeTracker)
  /// Writes a value that `anyCurrentValue` returned back (time travel).
  func restore(_ value: Any)
  /// Why the value could not be loaded or saved, if the last attempt failed.
  var error: (any Error)? { get }
  /// Reads the field at `keyPath` (a key path from the value) and observes it.
  func read<Member>(at keyPath: AnyKeyPath, as: Member.Type) -> Member
  /// The field at `keyPath` now, without observing it.
  func currentValue<Member>(at keyPath: AnyKeyPath, as: Member.Type) -> Member
  /// The field at `keyPath` of `value`, a value of this reference's type.
  func project<Member>(_ value: Any, at keyPath: AnyKeyPath, as: Member.Type) -> Member?
  /// Mutates the field at `keyPath`, a writable key path from the value.
  func mutate<Member, Result>(
    at keyPath: AnyKeyPath, _ body: (inout Member) throws -> Result
  ) rethrows -> Result
  /// Calls `onChange` with the new value after each change, on the thread that made it, until
  /// the returned subscription is cancelled.
  func observeChanges(_ onChange: @escaping @Sendable (Any) -> Void) -> SharedSubscription
  /// `base` (a key path from the value) appended with `member`: the same key path object for
  /// the same two key path objects, so that reads through a derived shared value observe one
  /// field entry rather than a new one per read.
  func appending(_ base: AnyKeyPath, _ member: AnyKeyPath) -> AnyKeyPath
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
  // NB: `@exclusivity(unchecked)` on the fields read at every read: `lock` guards them, so the
  // runtime's exclusivity check (a `swift_beginAccess` per access) proves nothing more.
  @exclusivity(unchecked) @usableFromInline var value: Value
  /// The observed fields, each under the identity of a key path that read it. A key path
  /// literal is one object per call site, so a field read again is found by comparing one word
  /// per entry: a value has a few fields read from a few places, and a linear scan of them costs
  /// less than hashing one key. Two call sites that read the same field share its entry's field
  /// (see `observe`).
  // NB: `@exclusivity(unchecked)`, as `value`: `lock` guards it.
  @exclusivity(unchecked) @usableFromInline var observed: [ObservedFieldEntry<Value>] = []
  private var storedError: (any Error)?
  private let isEqual: ((Value, Value) -> Bool)?
  @usableFromInline let registrar = ObservationRegistrar()
  package let keyDescription: String
  /// The test store that records this value's changes, if one holds it.
  var tracker: SharedChangeTracker? {
    get { lock.withLock { storedTracker } }
    set { lock.withLock { storedTracker = newValue } }
  }
  // NB: `@exclusivity(unchecked)`, as `value`: read and written under `lock` only (`tracker`).
  @exclusivity(unchecked) @usableFromInline var storedTracker: SharedChangeTracker?
  private let save: (@Sendable (Value) throws -> Void)?
  private var subscription: SharedSubscription?
  /// What `observeChanges` added: called after each change.
  private var changeObservers: [(id: UInt64, onChange: @Sendable (Any) -> Void)] = []
  private var nextObserverID: UInt64 = 0
  /// What `appending` made, by the identities of the two key paths it appended.
  private var appendedKeyPaths: [AppendedKeyPath.ID: AppendedKeyPath] = [:]

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

  package var changeCount: UInt64 { lock.withLock { storedChangeCount } }
  private var storedChangeCount: UInt64 = 0

  package func markForReplay(_ marker: SharedChangeTracker) -> Bool {
    lock.withLock {
      guard storedTracker == nil else { return false }
      storedTracker = marker
      return true
    }
  }

  package func unmarkForReplay(_ marker: SharedChangeTracker) {
    lock.withLock { if storedTracker === marker { storedTracker = nil } }
  }

  package func restore(_ value: Any) {
    guard let value = value as? Value else { return }
    mutate { $0 = value }
  }

  // MARK: - Reading

  /// The value, without observing it.
  var currentValue: Value {
    if let replay = SharedReplay.current, let copy = replay.value(of: self) as? Value {
      return copy
    }
    if let tracker, let asserted = tracker.assertedValue(of: self) { return asserted }
    return lock.withLock { value }
  }

  /// Reads `keyPath` of the value and registers the read with Observation.
  ///
  /// NB: inlined where it is written (`store.settings.theme`), so that it is specialized for the
  /// value's type and the key path literal: the optimizer then turns `value[keyPath: keyPath]`
  /// into a field access, where a generic key path projection looks up metadata at every read,
  /// and finds the field without any generic metadata lookup, so that a shared field's read
  /// costs about what a plain field's read does.
  @inlinable @inline(__always)
  func read<Member>(_ keyPath: KeyPath<Value, Member>) -> Member {
    lock.lock()
    guard storedTracker == nil else {
      lock.unlock()
      return readWhileTracked(keyPath)
    }
    return readLocked(keyPath)
  }

  /// A read of a value that a test store tracks: its asserted value while an assertion runs.
  @usableFromInline
  func readWhileTracked<Member>(_ keyPath: KeyPath<Value, Member>) -> Member {
    if let replay = SharedReplay.current, let copy = replay.value(of: self) as? Value {
      return copy[keyPath: keyPath]
    }
    if let tracker, let asserted = tracker.assertedValue(of: self) {
      return asserted[keyPath: keyPath]
    }
    lock.lock()
    return readLocked(keyPath)
  }

  /// Reads `keyPath` of the value and registers the read. Call with the lock held: it releases
  /// it.
  @inlinable @inline(__always)
  func readLocked<Member>(_ keyPath: KeyPath<Value, Member>) -> Member {
    let member = value[keyPath: keyPath]
    let field = observedField(ObjectIdentifier(keyPath))
    lock.unlock()
    access(field ?? observe(keyPath, value: member), as: Member.self)
    return member
  }

  /// The observed field read through the key path whose identity is `id`. Call under the lock.
  @inlinable @inline(__always)
  func observedField(_ id: ObjectIdentifier) -> ObservedField<Value>? {
    for entry in observed where entry.id == id { return entry.field }
    return nil
  }

  /// Registers a read of `field`, whose member is a `Member`, with Observation.
  @inlinable @inline(__always)
  func access<Member>(_ field: ObservedField<Value>, as _: Member.Type) {
    // NB: the field's key path is a `KeyPath<SharedReference, Member>`: its entry was found by
    // the identity of a key path to a `Member`, or made for one.
    registrar.access(
      self, keyPath: unsafeDowncast(field.readKeyPath, to: KeyPath<SharedReference, Member>.self))
  }

  /// The field at `keyPath`, read for the first time through this key path object: the field
  /// of an equal key path already observed, else a new one.
  @usableFromInline
  func observe<Member>(_ keyPath: KeyPath<Value, Member>, value member: Member)
    -> ObservedField<Value>
  {
    lock.withLock {
      let id = ObjectIdentifier(keyPath)
      if let existing = observedField(id) { return existing }
      // NB: another key path object for a field already observed (another call site, or a key
      // path built at run time) shares its field, so the entries grow with the places that read
      // a field, not with the reads. Past a bound, such a key path finds its field this way at
      // each read rather than adding an entry.
      if let same = observed.first(where: { $0.keyPath == keyPath }) {
        if observed.count < ObservedFieldEntry<Value>.aliasLimit {
          observed.append(ObservedFieldEntry(id: id, keyPath: keyPath, field: same.field))
        }
        return same.field
      }
      let field = ObservedField(keyPath: keyPath, value: member)
      observed.append(ObservedFieldEntry(id: id, keyPath: keyPath, field: field))
      return field
    }
  }

  /// The member at `keyPath`: the key path that Observation is told about for reads of it.
  subscript<Member>(field keyPath: KeyPath<Value, Member>) -> Member {
    lock.withLock { value[keyPath: keyPath] }
  }

  package var error: (any Error)? {
    registrar.access(self, keyPath: \.error)
    return lock.withLock { storedError }
  }

  // MARK: - Fields reached through a derived shared value

  package func read<Member>(at keyPath: AnyKeyPath, as _: Member.Type) -> Member {
    read(keyPath as! KeyPath<Value, Member>)
  }

  package func currentValue<Member>(at keyPath: AnyKeyPath, as _: Member.Type) -> Member {
    currentValue[keyPath: keyPath as! KeyPath<Value, Member>]
  }

  package func project<Member>(_ value: Any, at keyPath: AnyKeyPath, as _: Member.Type)
    -> Member?
  {
    (value as? Value).map { $0[keyPath: keyPath as! KeyPath<Value, Member>] }
  }

  package func mutate<Member, Result>(
    at keyPath: AnyKeyPath, _ body: (inout Member) throws -> Result
  ) rethrows -> Result {
    let keyPath = keyPath as! WritableKeyPath<Value, Member>
    return try mutate { try body(&$0[keyPath: keyPath]) }
  }

  package func appending(_ base: AnyKeyPath, _ member: AnyKeyPath) -> AnyKeyPath {
    let id = AppendedKeyPath.ID(base: ObjectIdentifier(base), member: ObjectIdentifier(member))
    if let found = lock.withLock({ appendedKeyPaths[id] }) { return found.path }
    let path = base.appending(path: member)!
    lock.withLock {
      // NB: bounded, as the observed fields are: key paths built at run time find no entry,
      // and stop adding one past the bound.
      if appendedKeyPaths.count < ObservedFieldEntry<Value>.aliasLimit {
        appendedKeyPaths[id] = AppendedKeyPath(base: base, member: member, path: path)
      }
    }
    return path
  }

  // MARK: - Change observers

  package func observeChanges(_ onChange: @escaping @Sendable (Any) -> Void)
    -> SharedSubscription
  {
    let id = lock.withLock {
      nextObserverID &+= 1
      changeObservers.append((nextObserverID, onChange))
      return nextObserverID
    }
    return SharedSubscription { [weak self] in
      guard let self else { return }
      self.lock.withLock { self.changeObservers.removeAll { $0.id == id } }
    }
  }

  // MARK: - Writing

  /// Mutates the value under the lock, then saves it and tells its observers.
  func mutate<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    if let replay = SharedReplay.current {
      // NB: a replay's reducer writes the replay's copy (see SharedReplay.swift).
      var copy = replay.value(of: self) as? Value ?? lock.withLock { value }
      let result = try body(&copy)
      replay.set(copy, for: self)
      return result
    }
    if let scoped = SharedChangeTracker.scoped, markForReplay(scoped) { scoped.adopt(self) }
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
    // NB: a write of the value there (an effect setting what is there) is no change: the
    // Inspector's timeline takes a change between two steps for a state it can't recompute.
    let changed = isEqual.map { !$0(previous, current) } ?? true
    if changed { storedChangeCount &+= 1 }
    lock.unlock()
    if !changed { return result }
    didChange(from: previous, to: current, save: true)
    return result
  }

  /// Takes a value changed outside the process: every holder sees it; nothing is saved. The
  /// value there again (a file's echo of the app's own save) is no change.
  func receive(_ newValue: Value) {
    let previous = lock.withLock {
      defer { value = newValue }
      return value
    }
    if let isEqual, isEqual(previous, newValue) { return }
    lock.withLock { storedChangeCount &+= 1 }
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
    let observers = lock.withLock { changeObservers }
    for observer in observers { observer.onChange(current) }
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
    // NB: a scoped store may show a state computed from this value's fields (see
    // ScopedStateCache.swift).
    let stateCaches = ScopedStateCaches.all
    if !stateCaches.isEmpty { stateCaches.emptyAll() }
    let changed: [ObservedField<Value>] = lock.withLock {
      guard !observed.isEmpty else { return [] }
      let value = value
      var changed: [ObservedField<Value>] = []
      observed.removeAll { entry in
        guard entry.field.hasChanged(value) else { return false }
        // NB: the entries of one field share it: it is told once.
        if !changed.contains(where: { $0 === entry.field }) { changed.append(entry.field) }
        return true
      }
      return changed
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

/// A key path that a derived shared value reads through, made once from the two it appends
/// (which it keeps alive, so that their identities name it).
struct AppendedKeyPath {
  struct ID: Hashable {
    let base: ObjectIdentifier
    let member: ObjectIdentifier
  }
  let base: AnyKeyPath
  let member: AnyKeyPath
  let path: AnyKeyPath
}

/// One way of reading an observed field: the identity of a key path that read it, and the field.
@usableFromInline
struct ObservedFieldEntry<Value: Sendable> {
  /// How many entries a value keeps before a field read through yet another key path object
  /// stops adding one.
  static var aliasLimit: Int { 64 }
  /// The identity of the key path read.
  @usableFromInline let id: ObjectIdentifier
  /// Keeps the key path object alive while its identity names the entry.
  let keyPath: AnyKeyPath
  @usableFromInline let field: ObservedField<Value>
}

/// A field of a shared value that a reader observed, with the value it saw.
///
/// A class, so that finding it copies one reference, and the entries of a field share it.
@usableFromInline
final class ObservedField<Value: Sendable> {
  /// The key path Observation is told about: `\SharedReference<Value>.[field: keyPath]`, built
  /// once (the runtime instantiates such a key path at each evaluation).
  @usableFromInline let readKeyPath: AnyKeyPath
  let hasChanged: (Value) -> Bool
  /// Tells Observation that the field changed.
  let notify: (SharedReference<Value>) -> Void

  init<Member>(keyPath: KeyPath<Value, Member>, value: Member) {
    let readKeyPath = \SharedReference<Value>.[field: keyPath]
    self.readKeyPath = readKeyPath
    self.notify = {
      $0.registrar.willSet($0, keyPath: readKeyPath)
      $0.registrar.didSet($0, keyPath: readKeyPath)
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
