import ConcurrencyExtras
import Dependencies
import Foundation
import IssueReporting

/// Where shared values are kept: the values of in-memory keys, the file system that file keys
/// use, the defaults that app-storage keys use, and the clock that times deferred writes and
/// file watching.
///
/// The storage is a dependency, `@Dependency(\.sharedStorage)`, and a store carries it as it
/// carries every dependency value: the storage in force when a store is made is the one its
/// reducer and effects make shared values in, whoever sends the action and whenever the effect
/// runs.
///
/// - An app uses ``live``, the dependency's live value.
/// - A test gets a fresh ``inMemory(clock:)`` storage of its own, the dependency's test value:
///   the shared values the test's body makes and those of every store it builds live there, so
///   no test touches the user's files or defaults, and tests running in parallel share nothing.
/// - A preview, or a UI test's store, picks one with `withDependencies` or
///   ``withSharedStorage(_:operation:)-(_,()->R)``:
///
/// ```swift
/// let clock = TestClock()
/// let store = withSharedStorage(.inMemory(clock: clock)) {
///   Store(initialState: Settings.State()) { Settings() }
/// }
/// // The store's reducer makes its keyed shared values in that storage, even after the
/// // closure returned.
/// ```
///
/// NB: a test's storage is swift-dependencies' cached test value, kept per test (per `@Test`
/// function under Swift Testing, so the arguments of a parameterized test share one; per test
/// case under XCTest where swift-dependencies resets its cache between test cases).
public final class SharedStorage: Sendable {
  /// The files that ``SharedKey/fileStorage(_:maximumSize:)`` reads and writes.
  public let files: SharedFileSystem
  /// The defaults that ``SharedKey/appStorage(_:)`` reads and writes.
  public let defaults: SharedDefaults
  /// The clock that times deferred file writes and file watching.
  public let clock: any Clock<Duration>
  /// How long a file key waits after a change before writing it: a burst of changes is one
  /// write. The last one is written when the process exits normally.
  public let fileWriteDelay: Duration
  /// How often a file key checks its file for changes made outside the process.
  public let filePollInterval: Duration

  let references = ReferenceTable()
  /// The values of in-memory keys, by name: kept while no holder is left.
  let memory = LockIsolated<[String: any Sendable]>([:])
  /// The files that file keys use, by path.
  let fileRecords = LockIsolated<[String: SharedFile]>([:])
  /// The change tracker of the test store that runs against this storage, if any.
  package var tracker: SharedChangeTracker? { trackerInUse.value }
  private let trackerInUse = LockIsolated<SharedChangeTracker?>(nil)

  /// A storage over `files`, `defaults` and `clock`.
  public init(
    files: SharedFileSystem,
    defaults: SharedDefaults,
    clock: any Clock<Duration> = ContinuousClock(),
    fileWriteDelay: Duration = .seconds(1),
    filePollInterval: Duration = .seconds(1)
  ) {
    self.files = files
    self.defaults = defaults
    self.clock = clock
    self.fileWriteDelay = fileWriteDelay
    self.filePollInterval = filePollInterval
  }

  /// The real file system, the standard user defaults and the continuous clock.
  public static let live = SharedStorage(
    files: .live, defaults: .standard, clock: ContinuousClock())

  /// A storage that keeps everything in memory: files, defaults and in-memory keys alike.
  /// Each call makes a new, empty one.
  public static func inMemory(clock: any Clock<Duration> = ContinuousClock()) -> SharedStorage {
    SharedStorage(files: .inMemory(), defaults: .inMemory(), clock: clock)
  }

  /// The storage in force: the `\.sharedStorage` dependency (``live`` in an app, a storage of
  /// the test's own in a test), as ``withSharedStorage(_:operation:)-(_,()->R)`` or
  /// `withDependencies` set it, and as the store running the current action or effect carries it.
  public static var current: SharedStorage {
    DependencyValues._current.sharedStorage
  }

  /// This storage with other files or defaults: what setting `\.defaultFileStorage` or
  /// `\.defaultAppStorage` makes. It keeps no shared value of this one.
  func replacing(
    files: SharedFileSystem? = nil, defaults: SharedDefaults? = nil
  ) -> SharedStorage {
    SharedStorage(
      files: files ?? self.files, defaults: defaults ?? self.defaults, clock: clock,
      fileWriteDelay: fileWriteDelay, filePollInterval: filePollInterval)
  }

  // MARK: - A test store's tracker

  /// Has `tracker` record the changes of the shared values kept here: those there are now (a
  /// test's body may have made them before its test store) and those made from now on.
  package func attach(_ tracker: SharedChangeTracker) {
    trackerInUse.setValue(tracker)
    let held: [any AnySharedReference] = references.lock.withLock {
      references.table.values.compactMap { $0.value }
    }
    for reference in held { reference.attach(tracker) }
  }

  /// The test store whose tracker this is has ended: shared values made from now on are not
  /// tracked by it.
  package func detach(_ tracker: SharedChangeTracker) {
    trackerInUse.withValue { if $0 === tracker { $0 = nil } }
  }

  // MARK: - Shared references by key

  /// The reference of the key `id`, if a holder has it.
  func existingReference<Value>(for id: AnyHashable) -> SharedReference<Value>? {
    references.lock.withLock { references.table[id]?.value as? SharedReference<Value> }
  }

  /// The reference of the key `id`, made by `make` when there is none.
  func reference<Value>(
    for id: AnyHashable, make: () -> SharedReference<Value>
  ) -> SharedReference<Value> {
    references.lock.withLock {
      if let existing = references.table[id]?.value as? SharedReference<Value> { return existing }
      if let other = references.table[id]?.value {
        reportIssue(
          Diagnostics.sharedKeyTypeMismatch(id: id.base, held: other.valueType, asked: Value.self))
      }
      let reference = make()
      references.table[id] = WeakReference(reference)
      return reference
    }
  }
}

/// Runs `operation` with `storage` as the ``SharedStorage/current`` storage: the shared values
/// made inside it, and by the stores made inside it (whenever their reducers and effects run),
/// live there.
///
/// It sets the `\.sharedStorage` dependency: `withDependencies { $0.sharedStorage = storage }`
/// does the same.
public func withSharedStorage<R>(
  _ storage: SharedStorage, operation: () throws -> R
) rethrows -> R {
  try withDependencies {
    $0.sharedStorage = storage
  } operation: {
    try operation()
  }
}

/// Runs `operation` with `storage` as the ``SharedStorage/current`` storage.
public func withSharedStorage<R>(
  _ storage: SharedStorage,
  isolation: isolated (any Actor)? = #isolation,
  operation: () async throws -> R
) async rethrows -> R {
  var values = DependencyValues._current
  values.sharedStorage = storage
  return try await DependencyValues.$_current.withValue(
    values, operation: operation, isolation: isolation)
}

struct WeakReference: Sendable {
  weak var value: (any AnySharedReference)?
  init(_ value: any AnySharedReference) { self.value = value }
}

/// The shared references of a storage, by key.
///
/// NB: `@unchecked Sendable`: `table` is read and written under `lock` only.
final class ReferenceTable: @unchecked Sendable {
  let lock = NSRecursiveLock()
  var table: [AnyHashable: WeakReference] = [:]
}
