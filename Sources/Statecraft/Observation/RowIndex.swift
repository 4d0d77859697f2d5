import IdentifiedCollections
import Observation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

// Row stores (`store.scope(state: \.rows, id: id, action: ...)`) are indexed by row, so that a
// batch re-checks the row stores of the rows it may have written, not every observed row.
//
// How a batch knows which rows it wrote, without copying the rows and without missing a write:
//
// - Between batches each index holds a *snapshot* of its collection (a retain, not a copy), and
//   the identity of the collection's element storage. Any in-place write to the collection while
//   the snapshot is held finds the storage shared and copies it, which changes the identity.
// - `forEach`, for an element action, lets go of the snapshots of its collection just before the
//   element reducer writes the element (so that write is in place), records the element's id as
//   touched, and takes the snapshot back just after. The element reducer can only write that
//   element.
// - After the batch, an index whose collection still has the same storage identity re-checks the
//   row stores of the touched ids only; one whose storage changed (a write that did not go through
//   a `forEach` element action: a parent reducer, an insertion, a replacement) re-checks all of
//   its row stores.
//
// So a missed write is impossible: the log only narrows the re-check when the storage identity
// proves that no other write happened. The price is paid by writes outside element actions while
// row stores are observed: one copy of the collection per batch that makes such a write.

/// The write log of a store tree's row indexes, reachable from reducers through a thread-local
/// while the root reduces.
///
/// NB: it is not main-actor isolated because `forEach` reaches it from nonisolated reducer code.
/// It is only ever used on the thread that set it as current: the root store's (the main actor's)
/// thread, synchronously, while that root reduces.
@usableFromInline
final class RowWriteLog {
  /// The indexes of the store tree, in the order they were made.
  var indexes: [RowIndex] = []

  init() {}

  // MARK: - The current log

  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    let result = pthread_key_create(&key, nil)
    precondition(result == 0, "Statecraft could not create a thread-local key (\(result)).")
    return key
  }()

  /// The log of the store tree reducing on this thread, if it has row indexes.
  @usableFromInline
  static var current: RowWriteLog? {
    guard let pointer = pthread_getspecific(key) else { return nil }
    return Unmanaged<RowWriteLog>.fromOpaque(pointer).takeUnretainedValue()
  }

  /// Makes `log` current, returning the log that was current (restore it with ``exit(to:)``).
  static func enter(_ log: RowWriteLog) -> UnsafeMutableRawPointer? {
    let previous = pthread_getspecific(key)
    pthread_setspecific(key, Unmanaged.passUnretained(log).toOpaque())
    return previous
  }

  static func exit(to previous: UnsafeMutableRawPointer?) {
    pthread_setspecific(key, previous)
  }

  // MARK: - Element writes

  /// Called by `forEach` before an element reducer writes the element `id` of `rows`: lets go of
  /// the snapshots of `rows` and records `id` as touched. Returns the indexes to hand back to
  /// ``didWrite(_:to:)``.
  @usableFromInline
  func willWrite<ID: Hashable, Element>(
    _ rows: IdentifiedArray<ID, Element>, id: ID
  ) -> [RowIndex] {
    let identity = storageIdentity(of: rows)
    var written: [RowIndex] = []
    for index in indexes where index.identity == identity && index.snapshot != nil {
      index.snapshot = nil
      index.touched.insert(AnyHashable(id))
      written.append(index)
    }
    return written
  }

  /// Called by `forEach` after an element reducer wrote: takes the snapshots back.
  @usableFromInline
  func didWrite<ID: Hashable, Element>(
    _ rows: IdentifiedArray<ID, Element>, to written: [RowIndex]
  ) {
    for index in written { index.snapshot = rows }
  }
}

/// The identity of an identified array's element storage.
func storageIdentity<ID: Hashable, Element>(
  of rows: IdentifiedArray<ID, Element>
) -> UnsafeRawPointer? {
  rows.elements.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
}

/// The row stores made from one store for one collection, by row id, and what the current batch
/// touched.
@usableFromInline
class RowIndex: Observable {
  /// The collection as last published (see the comment at the top of this file).
  var snapshot: Any?
  /// The storage identity of `snapshot` when it was published.
  var identity: UnsafeRawPointer?
  /// The ids that element actions wrote in the current batch.
  var touched: Set<AnyHashable> = []
  /// The row stores observed by a reader, by row id.
  var observers: [AnyHashable: [WeakObservedStore]] = [:]
  /// Whether each row was present when a reader asked for its store (cleared when it changes).
  var presence: [AnyHashable: Bool] = [:]
  let registrar = ObservationRegistrar()

  init() {}

  /// Whether the store the index reads from is still alive.
  var isAlive: Bool { fatalError("RowIndex is abstract: IdentifiedRowIndex overrides this.") }

  /// Re-checks the row stores whose rows the batch may have changed, then takes a new snapshot.
  @MainActor
  func publish() { fatalError("RowIndex is abstract: IdentifiedRowIndex overrides this.") }

  subscript(isPresent id: AnyHashable) -> Bool { presence[id] ?? false }

  /// Registers `store` as observing the row `id`.
  @MainActor
  func register(_ store: any ObservedStore, for id: AnyHashable) {
    observers[id, default: []].append(WeakObservedStore(store))
  }

  /// Registers a read of whether the row `id` is present.
  func observePresence(of id: AnyHashable, isPresent: Bool) {
    presence[id] = isPresent
    registrar.access(self, keyPath: \RowIndex.[isPresent: id])
  }

  /// Notifies the readers of whether the row `id` is present, and forgets them.
  func presenceChanged(of id: AnyHashable) {
    presence[id] = nil
    registrar.willSet(self, keyPath: \RowIndex.[isPresent: id])
    registrar.didSet(self, keyPath: \RowIndex.[isPresent: id])
  }

  @MainActor
  func publishChanges(of stores: [WeakObservedStore]) -> [WeakObservedStore]? {
    var remaining: [WeakObservedStore] = []
    for weakStore in stores {
      guard let store = weakStore.value else { continue }
      store.publishChanges()
      if store.isObserving { remaining.append(weakStore) }
    }
    return remaining.isEmpty ? nil : remaining
  }
}

/// A ``RowIndex`` over an `IdentifiedArray` read from a store.
final class IdentifiedRowIndex<ID: Hashable & Sendable, Element>: RowIndex {
  private let read: @MainActor () -> IdentifiedArray<ID, Element>?

  @MainActor
  init(read: @escaping @MainActor () -> IdentifiedArray<ID, Element>?) {
    self.read = read
    super.init()
    if let rows = read() {
      snapshot = rows
      identity = storageIdentity(of: rows)
    }
  }

  private var isReadable = true
  override var isAlive: Bool { isReadable }

  @MainActor
  override func publish() {
    guard let rows = read() else {
      isReadable = false
      snapshot = nil
      return
    }
    let identity = storageIdentity(of: rows)
    let touched = self.touched
    self.touched.removeAll(keepingCapacity: true)
    if identity != self.identity || snapshot == nil {
      // NB: a write that did not go through an element action: every row may have changed.
      let observers = self.observers
      for (id, stores) in observers {
        self.observers[id] = publishChanges(of: stores)
      }
      if !presence.isEmpty {
        var changed: [AnyHashable] = []
        for (id, wasPresent) in presence where (rows[id: id.base as! ID] != nil) != wasPresent {
          changed.append(id)
        }
        for id in changed { presenceChanged(of: id) }
      }
    } else {
      for id in touched {
        guard let stores = observers[id] else { continue }
        observers[id] = publishChanges(of: stores)
      }
    }
    snapshot = rows
    self.identity = identity
  }
}
