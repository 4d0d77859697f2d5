import IdentifiedCollections
import Observation

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
// - An element write that copied the storage (the collection was shared, for example by a copy of
//   the state that a reducer reduces on the side) leaves the published storage without its
//   snapshot: the index then re-checks all of its row stores after the batch.
//
// So a missed write is impossible: the log only narrows the re-check when the storage identity
// proves that no other write happened. The price is paid by writes outside element actions while
// row stores are observed: one copy of the collection per batch that makes such a write.

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
  /// The row stores' cores, observed or not, by row id: told the row's last state when it leaves.
  var holders: [AnyHashable: [WeakRowStateHolder]] = [:]
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

  /// Registers the core of a row store of the row `id`, to keep the row's last state.
  @MainActor
  func register(holder: any RowStateHolder, for id: AnyHashable) {
    holders[id, default: []].append(WeakRowStateHolder(holder))
  }

  /// Gives the holders of the rows that are no longer in the collection their last state, from
  /// `published` (the collection as last published), and forgets the released holders.
  @MainActor
  func keepLastStates(from published: Any?, isPresent: (AnyHashable) -> Bool) {
    var released: [AnyHashable] = []
    for (id, rowHolders) in holders {
      if rowHolders.allSatisfy({ $0.value == nil }) {
        released.append(id)
      } else if let published, !isPresent(id) {
        for holder in rowHolders { holder.value?.keepLastState(from: published) }
      }
    }
    for id in released { holders[id] = nil }
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
      // NB: a write that did not go through an element action: every row may have changed, and
      // rows may have left (only such a write removes one). The snapshot still holds them.
      if !holders.isEmpty {
        keepLastStates(from: snapshot) { rows[id: $0.base as! ID] != nil }
      }
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

/// A row store's core, told its row's last state when the row leaves the collection.
@MainActor
protocol RowStateHolder: AnyObject {
  func keepLastState(from rows: Any)
}

struct WeakRowStateHolder {
  weak var value: (any RowStateHolder)?
  init(_ value: any RowStateHolder) { self.value = value }
}
