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
///
/// A field of a shared value is a shared value too: `$settings.theme` (where a `Shared` is
/// expected) reads and writes the `theme` of `settings`, and ``reader`` gives a read-only view
/// (``SharedReader``).
@dynamicMemberLookup
@propertyWrapper
public struct Shared<Value: Sendable>: Sendable {
  /// The reference of a value of its own or stored under a key; nil for a value derived from
  /// another shared value's field.
  @usableFromInline var reference: SharedReference<Value>?
  /// How a value derived from another shared value's field reaches it; nil otherwise.
  @usableFromInline var projection: SharedProjection?

  /// A shared value of its own, not stored under any key: the copies of this `Shared` share it.
  public init(value: Value) {
    self.reference = SharedReference(
      value: value, keyDescription: "(value:)", tracker: SharedStorage.current.tracker)
  }

  init(reference: SharedReference<Value>) {
    self.reference = reference
  }

  /// The shared value that `projection` reaches.
  init(projection: SharedProjection) {
    self.projection = projection
  }

  /// The value stored under `key`, or the key's own default when nothing is stored yet.
  ///
  /// ```swift
  /// extension SharedKey where Self == SharedKeyDefault<AppStorageKey<Bool>> {
  ///   static var isOn: Self { SharedKeyDefault(.appStorage("isOn"), false) }
  /// }
  /// @Shared(.isOn) var isOn   // no default at each use
  /// ```
  public init<Key: SharedKey>(
    _ key: SharedKeyDefault<Key>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where Key.Value == Value {
    self.init(
      wrappedValue: key.defaultValue(), key, fileID: fileID, filePath: filePath, line: line,
      column: column)
  }

  /// The value stored under `key`, or `wrappedValue` (not the key's default) when nothing is
  /// stored yet.
  public init<Key: SharedKey>(
    wrappedValue: @autoclosure () -> Value,
    _ key: SharedKeyDefault<Key>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where Key.Value == Value {
    let storage = SharedStorage.current
    self.reference = storage.reference(for: AnyHashable(key.id)) {
      makeReference(
        key: key, default: wrappedValue(), storage: storage,
        location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
  }

  /// The value stored under `key`; throws when nothing is stored (and no other holder has
  /// it), or when what is stored can't be read.
  ///
  /// ```swift
  /// let token = try Shared<String>(.appStorage("token"))
  /// ```
  public init(
    _ key: some SharedKey<Value>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) throws {
    let storage = SharedStorage.current
    if let existing: SharedReference<Value> = storage.existingReference(for: AnyHashable(key.id)) {
      self.init(reference: existing)
      return
    }
    guard let loaded = try key.load(in: storage) else {
      throw SharedLoadError(key: ".\(String(describing: key))")
    }
    self.init(
      wrappedValue: loaded, key, fileID: fileID, filePath: filePath, line: line, column: column)
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
    @inlinable @inline(__always) get { read(\.self) }
    nonmutating set { write { $0 = newValue } }
  }

  /// This shared value, for `$count.withLock { $0 += 1 }` on a wrapped property. Setting it
  /// (`$count = Shared(value: 0)`) makes the property hold another shared value.
  public var projectedValue: Shared<Value> {
    get { self }
    set { self = newValue }
  }

  /// A read-only view of this shared value: it sees every write, and can't write.
  public var reader: SharedReader<Value> { SharedReader(self) }

  /// Reads a field of the value and observes that field only.
  @inlinable @inline(__always)
  public subscript<Member>(dynamicMember keyPath: KeyPath<Value, Member>) -> Member {
    read(keyPath)
  }

  /// Reads or writes a field of the value; reading observes that field only. Write on the main
  /// actor (in a reducer), or use ``withLock(_:)``.
  public subscript<Member>(dynamicMember keyPath: WritableKeyPath<Value, Member>) -> Member {
    // NB: inlined always, so that the key path literal of the read reaches `read`, where the
    // optimizer turns its projection into a field access.
    @inlinable @inline(__always) get { read(keyPath) }
    nonmutating set { write { $0[keyPath: keyPath] = newValue } }
  }

  /// A field of the value, as a shared value of its own: it reads and writes that field of this
  /// one, and every holder of either sees the other's writes.
  ///
  /// ```swift
  /// let isOn: Shared<Bool> = $settings.isOn
  /// isOn.wrappedValue = true   // settings.isOn is true
  /// ```
  ///
  /// Reading a field (`settings.isOn`) reads the value; where a `Shared` is expected, the field
  /// is a shared value.
  @_disfavoredOverload
  public subscript<Member: Sendable>(dynamicMember keyPath: WritableKeyPath<Value, Member>)
    -> Shared<Member>
  {
    Shared<Member>(projection: projected(keyPath, isWritable: true))
  }

  /// A field of the value, as a read-only shared value (see ``SharedReader``).
  @_disfavoredOverload
  public subscript<Member: Sendable>(dynamicMember keyPath: KeyPath<Value, Member>)
    -> SharedReader<Member>
  {
    SharedReader(Shared<Member>(projection: projected(keyPath, isWritable: false)))
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
    try mutate(body)
  }

  /// Why the value could not be loaded or saved, if the last attempt failed: a corrupt file, a
  /// file changed on disk, a read-only file. Observed like a field.
  public var error: (any Error)? { reference?.error ?? projection?.root.error }

  private func write(_ body: (inout Value) -> Void) {
    if !isOnMainActor() {
      reportIssue(Diagnostics.sharedWriteOffMainActor(key: keyDescription))
    }
    mutate(body)
  }

  // MARK: - The reference, or the projection of another one

  /// Reads `keyPath` of the value and observes it.
  @inlinable @inline(__always)
  func read<Member>(_ keyPath: KeyPath<Value, Member>) -> Member {
    if let reference { return reference.read(keyPath) }
    return readProjected(keyPath)
  }

  @usableFromInline
  func readProjected<Member>(_ keyPath: KeyPath<Value, Member>) -> Member {
    let projection = projection!
    let root = projection.root
    return root.read(at: root.appending(projection.keyPath, keyPath), as: Member.self)
  }

  func mutate<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    if let reference { return try reference.mutate(body) }
    let projection = projection!
    guard projection.isWritable else {
      preconditionFailure("A read-only shared value was written: \(projection.keyPath)")
    }
    return try projection.root.mutate(at: projection.keyPath, body)
  }

  /// Calls `onChange` with the new value after each change of the value (of the whole value
  /// behind a derived one), on the thread that made it, until the subscription is cancelled or
  /// released: what `publisher` in StatecraftCombine is built on.
  package func observeChanges(_ onChange: @escaping @Sendable (Value) -> Void)
    -> SharedSubscription
  {
    let root = anyReference
    let projection = projection
    return root.observeChanges { value in
      if let projection {
        if let member = root.project(value, at: projection.keyPath, as: Value.self) {
          onChange(member)
        }
      } else if let value = value as? Value {
        onChange(value)
      }
    }
  }

  /// The value, without observing it.
  var currentValue: Value {
    if let reference { return reference.currentValue }
    let projection = projection!
    return projection.root.currentValue(at: projection.keyPath, as: Value.self)
  }

  /// The value as a recording reads it: while a snapshot is read
  /// (`SharedSnapshot.whileReading`), the value it had then; otherwise the value now.
  package var recordedValue: Value {
    let root = anyReference
    if let snapshot = SharedSnapshot.reading?.value(of: root) {
      if reference != nil, let value = snapshot as? Value { return value }
      if let projection,
        let value = root.project(snapshot, at: projection.keyPath, as: Value.self)
      {
        return value
      }
    }
    return currentValue
  }

  var keyDescription: String {
    reference?.keyDescription ?? projection.map { "\($0.root.keyDescription)\($0.path)" } ?? ""
  }

  /// The projection of the field at `keyPath`.
  func projected<Member>(_ keyPath: KeyPath<Value, Member>, isWritable: Bool) -> SharedProjection {
    if let projection {
      return SharedProjection(
        root: projection.root, keyPath: projection.keyPath.appending(path: keyPath)!,
        isWritable: isWritable && projection.isWritable)
    }
    return SharedProjection(root: reference!, keyPath: keyPath, isWritable: isWritable)
  }
}

/// A field of a shared reference that a derived ``Shared`` or ``SharedReader`` reaches.
// NB: @unchecked Sendable is safe: its fields are `let`s, and a key path is immutable.
@usableFromInline
final class SharedProjection: @unchecked Sendable {
  let root: any AnySharedReference
  /// The key path from the root's value to the field.
  let keyPath: AnyKeyPath
  let isWritable: Bool

  init(root: any AnySharedReference, keyPath: AnyKeyPath, isWritable: Bool) {
    self.root = root
    self.keyPath = keyPath
    self.isWritable = isWritable
  }

  /// The key path, for messages: `.isOn`.
  var path: String {
    let description = String(describing: keyPath)
    guard let dot = description.firstIndex(of: ".") else { return description }
    return String(description[dot...])
  }
}

/// The error of `Shared(_:)` when nothing is stored under its key.
public struct SharedLoadError: Error, CustomStringConvertible {
  /// The key, as in messages: `.appStorage("token")`.
  public let key: String

  public var description: String { "No value is stored under \(key)." }
}

private func makeReference<Key: SharedKey>(
  key: Key, default defaultValue: Key.Value, storage: SharedStorage, location: SourceLocation
) -> SharedReference<Key.Value> {
  let description = ".\(String(describing: key))"
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
    if let reference = lhs.reference, reference === rhs.reference { return true }
    return lhs.currentValue == rhs.currentValue
  }
}

extension Shared: Hashable where Value: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(currentValue)
  }
}

extension Shared: SharedReferenceHolder {
  package var anyReference: any AnySharedReference { reference ?? projection!.root }
}

extension Shared: CustomDumpRepresentable {
  public var customDumpValue: Any { recordedValue }
}

extension Shared: CustomReflectable {
  /// The value's mirror: a shared value reads, to reflection, as the value it holds (in a
  /// recording, the value it had at the recorded step).
  public var customMirror: Mirror { Mirror(reflecting: recordedValue) }
}

extension Shared: CustomStringConvertible {
  public var description: String { "Shared(\(currentValue))" }
}

extension Shared: Codable where Value: Codable {
  /// Encodes the value (in a recording, the value it had at the recorded step).
  public func encode(to encoder: any Encoder) throws {
    try recordedValue.encode(to: encoder)
  }

  /// Decodes a value into a new shared value of its own (not stored under any key).
  public init(from decoder: any Decoder) throws {
    self.init(value: try Value(from: decoder))
  }
}
