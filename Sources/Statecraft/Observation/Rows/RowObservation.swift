// Owns row-level observation: how a batch re-checks the row stores
// (`store.scope(state: \.rows, id: id, action: ...)`) of the rows it may have written, not every
// observed row. Its parts: the entry point `forEach` writes an element through
// (`RowObservation.write(row:of:_:)`), the row indexes of a store tree (`RowIndexes`), the making
// of a row store (`Store.rowStore`), and each index (RowIndex.swift).
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

import IdentifiedCollections

/// The entry point of row-level observation for reducers.
@usableFromInline
enum RowObservation {
  /// Runs `write`, which writes the element `id` of `rows` and nothing else, so that the row
  /// indexes of the store tree reducing on this thread see which row it wrote.
  ///
  /// It lets go of the indexes' snapshots of `rows` before the write (so that the write is in
  /// place) and takes them back after it, however `write` returns.
  @inlinable
  static func write<ID: Hashable & Sendable, Element, Result>(
    row id: ID,
    of rows: inout IdentifiedArray<ID, Element>,
    _ write: (inout IdentifiedArray<ID, Element>) -> Result
  ) -> Result {
    guard let context = ReduceContext.current else { return write(&rows) }
    let written = context.willWrite(rows, id: id)
    defer { context.didWrite(rows, to: written) }
    return write(&rows)
  }
}

/// The identity of an identified array's element storage.
func storageIdentity<ID: Hashable, Element>(
  of rows: IdentifiedArray<ID, Element>
) -> UnsafeRawPointer? {
  rows.elements.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
}

// MARK: - Element writes

extension ReduceContext {
  /// Before an element reducer writes the element `id` of `rows`: lets go of the indexes'
  /// snapshots of `rows` and records `id` as touched. Returns the indexes to hand back to
  /// ``didWrite(_:to:)``.
  @usableFromInline
  func willWrite<ID: Hashable & Sendable, Element>(
    _ rows: IdentifiedArray<ID, Element>, id: ID
  ) -> [RowIndex<ID, Element>] {
    let identity = storageIdentity(of: rows)
    var written: [RowIndex<ID, Element>] = []
    for index in indexes where index.identity == identity {
      guard let index = index as? RowIndex<ID, Element>, index.snapshot != nil else { continue }
      index.snapshot = nil
      index.touched.insert(id)
      written.append(index)
    }
    return written
  }

  /// After an element reducer wrote: takes the snapshots back.
  @usableFromInline
  func didWrite<ID: Hashable & Sendable, Element>(
    _ rows: IdentifiedArray<ID, Element>, to written: [RowIndex<ID, Element>]
  ) {
    guard !written.isEmpty else { return }
    let identity = storageIdentity(of: rows)
    for index in written {
      // NB: a write that copied the storage wrote a copy of the published collection; the
      // published one is no longer held, so every row is re-checked after the batch.
      index.snapshot = identity == index.identity ? rows : nil
    }
  }
}

// MARK: - The row indexes of a store tree

/// The row indexes of a store tree, by the store and the collection they index.
@MainActor
final class RowIndexes {
  private let context: ReduceContext
  private var indexes: [RowIndexKey: any AnyRowIndex] = [:]

  init(context: ReduceContext) {
    self.context = context
  }

  /// The row index of the collection at `path` of the store whose core is `core`, reading the
  /// collection with `read`, made the first time.
  func index<ID: Hashable & Sendable, Element>(
    core: AnyObject,
    path: AnyKeyPath,
    read: @escaping @MainActor () -> IdentifiedArray<ID, Element>?
  ) -> RowIndex<ID, Element> {
    let key = RowIndexKey(core: ObjectIdentifier(core), path: path)
    // NB: the owner is compared too: the cores of departed children's stores are released as
    // they leave, and a new core may take the address of one whose index is not yet found dead.
    if let index = indexes[key] as? RowIndex<ID, Element>, index.isAlive, index.owner === core {
      return index
    }
    let index = RowIndex(owner: core, read: read)
    indexes[key] = index
    context.indexes.append(index)
    return index
  }

  /// Re-checks the row stores whose rows the batch may have written.
  func publish() {
    var hasDeadIndexes = false
    for index in context.indexes {
      index.publish()
      if !index.isAlive { hasDeadIndexes = true }
    }
    if hasDeadIndexes {
      context.indexes.removeAll { !$0.isAlive }
      indexes = indexes.filter { $0.value.isAlive }
    }
  }
}

struct RowIndexKey: Hashable {
  let core: ObjectIdentifier
  let path: AnyKeyPath
}

// MARK: - Row stores

extension Store {
  /// The store of the row `id` of the collection at `toRows`, cached among this store's scopes
  /// under `scopeID` until the row leaves; nil while no row has that id. Reading it observes
  /// only whether the row is present.
  func rowStore<ID: Hashable & Sendable, ElementState, ElementAction>(
    state toRows: KeyPath<State, IdentifiedArray<ID, ElementState>>,
    id: ID,
    scopeID: ScopeID,
    embed: @escaping (ElementAction) -> Action
  ) -> Store<ElementState, ElementAction>? {
    let core = self.core
    let index = core.runtime.observers.rows.index(core: core, path: toRows) {
      [weak core] in core?.state[keyPath: toRows]
    }
    let rowState = core.state[keyPath: toRows][id: id]
    index.observePresence(of: id, isPresent: rowState != nil)
    guard let rowState else {
      children[scopeID] = nil
      return nil
    }
    if let child = children[scopeID] as? Store<ElementState, ElementAction> {
      return child
    }
    // NB: a held row store shows the row's last state after the row leaves: the index gives it
    // the row from the collection as last published, and tells this store to let go of it.
    let lastState = LastPresentState(rowState)
    let rowCore = ScopedCore<State, Action, ElementState, ElementAction>(
      parent: core,
      toState: { lastState.keep($0[keyPath: toRows][id: id]) },
      fromAction: embed,
      registerObservedStore: { index.register($0, for: id) })
    let letGoOfRow = letGo(of: scopeID)
    index.register(lastState, for: id) { [weak rowCore] in
      if let rowCore { letGoOfRow(rowCore) }
    }
    let child = Store<ElementState, ElementAction>(core: rowCore)
    children[scopeID] = child
    return child
  }
}
