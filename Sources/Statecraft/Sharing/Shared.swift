import CustomDump
import Foundation
import IssueReporting

/// A value that several features hold and see each other's writes to, optionally persisted.
///
/// A `Shared` is a reference: every copy of it, in any feature's state and in any store of the
/// process, reads and writes the same value. Keyed ones made with the same key share one value
/// too, and a key can persist it: ``SharedKey/inMemory(_:)``, ``SharedKey/fileStorage(_:maximumSize:)``,
/// ``SharedKey/appStorage(_:)``, or a ``SharedKey`` of your own.
///
/// ```swift
/// struct Settings: Codable, Equatable { var theme = Theme.light; var fontSize = 14 }
///
/// struct Profile: Reducer {
///   struct State: Equatable {
///     var settings = Shared(wrappedValue: Settings(), .fileStorage(.settingsFile))
///   }
///   func reduce(into state: inout State, action: Action) -> Effect<Action> {
///     state.settings.theme = .dark   // every holder sees it; the file is written soon after
///     return .none
///   }
/// }
/// ```
///
/// - **Observation is per field.** A view that reads `store.settings.theme` is notified when any
///   holder changes `theme`, and not when `fontSize` changes.
/// - **Writes** happen on the main actor (in reducers, in views), or anywhere through
///   ``withLock(_:)``, which mutates under a lock so that concurrent writes lose nothing. A plain
///   write off the main actor is reported.
/// - **Equality** is by value: two `Shared`s are equal when their values are.
/// - **Tests**: a `TestStore` asserts shared changes like state changes, against an isolated
///   in-memory ``SharedStorage``.
///
/// It is also a property wrapper, for a state that reads like TCA's:
/// `@Shared(.appStorage("count")) var count = 0`. Reading a wrapped property through a store
/// (`store.count`) observes the whole value.
@dynamicMemberLookup
@propertyWrapper
public struct Shared<Value: Sendable>: Sendable {
  @usableFromInline let reference: SharedReference<Value>

  /// A shared value of its own, not stored under any key: the copies of this `Shared` share it.
  public init(value: Value) {
    self.reference = SharedReference(
      value: value, keyDescription: "(value:)", tracker: SharedStorage.current.tracker)
  }

  /// The value stored under `key` in the ``SharedStorage/current`` storage, or `wrappedValue`
  /// when nothing is stored yet.
  ///
  /// Every `Shared` made with an equal key shares one value: the first one loads it, the others
  /// ignore their default.
  public init(
    wrappedValue: @autoclosure () -> Value,
    _ key: some SharedKey<Value>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let storage = SharedStorage.current
    self.reference = storage.reference(for: AnyHashable(key.id)) {
      makeReference(
        key: key, default: wrappedValue(), storage: storage,
        location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
  }

  /// The value. Reading it observes all of it; reading a field (`shared.theme`) observes only
  /// that field.
  public var wrappedValue: Value {
    @inlinable @inline(__always) get { reference.read(\.self) }
    nonmutating set { write { $0 = newValue } }
  }

  /// This shared value, for `$count.withLock { $0 += 1 }` on a wrapped property.
  public var projectedValue: Shared<Value> { self }

  /// Reads a field of the value and observes that field only.
  @inlinable @inline(__always)
  public subscript<Member>(dynamicMember keyPath: KeyPath<Value, Member>) -> Member {
    reference.read(keyPath)
  }

  /// Reads or writes a field of the value; reading observes that field only. Write on the main
  /// actor (in a reducer), or use ``withLock(_:)``.
  public subscript<Member>(dynamicMember keyPath: WritableKeyPath<Value, Member>) -> Member {
    // NB: inlined always, so that the key path literal of the read reaches `read`, where the
    // optimizer turns its projection into a field access.
    @inlinable @inline(__always) get { reference.read(keyPath) }
    nonmutating set { write { $0[keyPath: keyPath] = newValue } }
  }

  /// Mutates the value under its lock, from any thread: concurrent mutations lose nothing.
  ///
  /// ```swift
  /// await withTaskGroup(of: Void.self) { group in
  ///   for _ in 1...100 { group.addTask { counter.withLock { $0 += 1 } } }
  /// }
  /// ```
  @discardableResult
  public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    try reference.mutate(body)
  }

  /// Why the value could not be loaded or saved, if the last attempt failed: a corrupt file, a
  /// file changed on disk, a read-only file. Observed like a field.
  public var error: (any Error)? { reference.error }

  private func write(_ body: (inout Value) -> Void) {
    if !isOnMainActor() {
      reportIssue(Diagnostics.sharedWriteOffMainActor(key: reference.keyDescription))
    }
    reference.mutate(body)
  }
}

private func makeReference<Key: SharedKey>(
  key: Key, default defaultValue: Key.Value, storage: SharedStorage, location: SourceLocation
) -> SharedReference<Key.Value> {
  let description = ".\(String(describing: key))"
  if storage.reportsPersistedReads, !(key is any InMemorySharedKey) {
    location.report(Diagnostics.sharedPersistedReadInTest(key: description))
  }
  var loadError: (any Error)?
  var value = defaultValue
  do {
    if let loaded = try key.load(in: storage) { value = loaded }
  } catch {
    loadError = error
  }
  let reference = SharedReference(
    value: value, keyDescription: description, tracker: storage.tracker,
    save: { try key.save($0, in: storage) })
  if let loadError { reference.fail(loadError) }
  let subscription = key.subscribe(
    in: storage,
    subscriber: SharedSubscriber(
      receive: { [weak reference] in reference?.receive($0) },
      fail: { [weak reference] in reference?.fail($0) }))
  reference.keep(subscription)
  return reference
}

/// A key whose value lives only in memory: reading it in a test needs no override.
protocol InMemorySharedKey {}

// MARK: - Conformances

extension Shared: Equatable where Value: Equatable {
  /// Whether the two values are equal (the same reference always is).
  public static func == (lhs: Shared, rhs: Shared) -> Bool {
    lhs.reference === rhs.reference || lhs.reference.currentValue == rhs.reference.currentValue
  }
}

extension Shared: Hashable where Value: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(reference.currentValue)
  }
}

extension Shared: SharedReferenceHolder {
  package var anyReference: any AnySharedReference { reference }
}

extension Shared: CustomDumpRepresentable {
  public var customDumpValue: Any {
    SharedSnapshot.reading?.value(of: reference) ?? reference.currentValue
  }
}

extension Shared: CustomReflectable {
  /// The value's mirror: a shared value reads, to reflection, as the value it holds (in a
  /// recording, the value it had at the recorded step).
  public var customMirror: Mirror {
    Mirror(reflecting: SharedSnapshot.reading?.value(of: reference) ?? reference.currentValue)
  }
}

extension Shared: CustomStringConvertible {
  public var description: String { "Shared(\(reference.currentValue))" }
}

extension Shared: Codable where Value: Codable {
  /// Encodes the value (in a recording, the value it had at the recorded step).
  public func encode(to encoder: any Encoder) throws {
    if let snapshot = SharedSnapshot.reading, let value = snapshot.value(of: reference) as? Value {
      try value.encode(to: encoder)
    } else {
      try reference.currentValue.encode(to: encoder)
    }
  }

  /// Decodes a value into a new shared value of its own (not stored under any key).
  public init(from decoder: any Decoder) throws {
    self.init(value: try Value(from: decoder))
  }
}
