import ConcurrencyExtras
import Foundation
import IssueReporting

/// Where shared values are kept: the values of in-memory keys, the file system that file keys
/// use, the defaults that app-storage keys use, and the clock that times deferred writes and
/// file watching.
///
/// An app uses ``live``. A `TestStore` runs each test against a fresh ``inMemory(clock:)``
/// storage, so no test touches the user's files or defaults; a test that builds plain stores
/// picks one with ``withSharedStorage(_:operation:)-(_,()->R)``:
///
/// ```swift
/// let clock = TestClock()
/// try withSharedStorage(.inMemory(clock: clock)) {
///   let store = Store(initialState: Settings.State()) { Settings() }
///   ...
/// }
/// ```
///
/// Reading a file or app-storage key in a test with no storage picked reports an issue, and
/// the key gets a throwaway in-memory stand-in.
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

  /// Whether reading a persisted key here is reported: the stand-in storage of a test that
  /// picked none.
  let reportsPersistedReads: Bool
  let references = ReferenceTable()
  /// The values of in-memory keys, by name: kept while no holder is left.
  let memory = LockIsolated<[String: any Sendable]>([:])
  /// The files that file keys use, by path.
  let fileRecords = LockIsolated<[String: SharedFile]>([:])
  /// The change tracker of the test store that owns this storage, if any.
  package let tracker: SharedChangeTracker?

  /// A storage over `files`, `defaults` and `clock`.
  public convenience init(
    files: SharedFileSystem,
    defaults: SharedDefaults,
    clock: any Clock<Duration> = ContinuousClock(),
    fileWriteDelay: Duration = .seconds(1),
    filePollInterval: Duration = .seconds(1)
  ) {
    self.init(
      files: files, defaults: defaults, clock: clock, fileWriteDelay: fileWriteDelay,
      filePollInterval: filePollInterval, reportsPersistedReads: false, tracker: nil)
  }

  package init(
    files: SharedFileSystem,
    defaults: SharedDefaults,
    clock: any Clock<Duration>,
    fileWriteDelay: Duration,
    filePollInterval: Duration,
    reportsPersistedReads: Bool,
    tracker: SharedChangeTracker?
  ) {
    self.files = files
    self.defaults = defaults
    self.clock = clock
    self.fileWriteDelay = fileWriteDelay
    self.filePollInterval = filePollInterval
    self.reportsPersistedReads = reportsPersistedReads
    self.tracker = tracker
  }

  /// The real file system, the standard user defaults and the continuous clock.
  public static let live = SharedStorage(
    files: .live, defaults: .standard, clock: ContinuousClock())

  /// A storage that keeps everything in memory: files, defaults and in-memory keys alike.
  /// Each call makes a new, empty one.
  public static func inMemory(clock: any Clock<Duration> = ContinuousClock()) -> SharedStorage {
    SharedStorage(files: .inMemory(), defaults: .inMemory(), clock: clock)
  }

  /// A fresh in-memory storage whose changes `tracker` records: a test store's.
  package static func isolated(tracker: SharedChangeTracker) -> SharedStorage {
    SharedStorage(
      files: .inMemory(), defaults: .inMemory(), clock: ContinuousClock(),
      fileWriteDelay: .seconds(1), filePollInterval: .seconds(1), reportsPersistedReads: false,
      tracker: tracker)
  }

  /// The storage picked with ``withSharedStorage(_:operation:)-(_,()->R)``, else ``live`` in an
  /// app and a reporting in-memory stand-in in a test.
  public static var current: SharedStorage {
    picked ?? (isTesting ? testStandIn : live)
  }

  @TaskLocal static var picked: SharedStorage?

  static let testStandIn = SharedStorage(
    files: .inMemory(), defaults: .inMemory(), clock: ContinuousClock(),
    fileWriteDelay: .seconds(1), filePollInterval: .seconds(1), reportsPersistedReads: true,
    tracker: nil)

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
/// made inside it (and in the tasks it starts) live there.
public func withSharedStorage<R>(
  _ storage: SharedStorage, operation: () throws -> R
) rethrows -> R {
  try SharedStorage.$picked.withValue(storage, operation: operation)
}

/// Runs `operation` with `storage` as the ``SharedStorage/current`` storage.
public func withSharedStorage<R>(
  _ storage: SharedStorage,
  isolation: isolated (any Actor)? = #isolation,
  operation: () async throws -> R
) async rethrows -> R {
  try await SharedStorage.$picked.withValue(storage, operation: operation, isolation: isolation)
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
