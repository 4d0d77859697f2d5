// Owns one row index: the row stores made from one store for one identified collection, by row id;
// the typed snapshot of the collection as last published; the rows the current batch touched;
// and re-checking, after a batch, the row stores of the rows it may have written. How the index
// learns which rows a batch wrote is in RowObservation.swift.

import IdentifiedCollections
import Observation

/// A row index, whatever its collection's types: what the store tree keeps in its list.
protocol AnyRowIndex: AnyObject {
  /// The storage identity of the collection as last published.
  var identity: UnsafeRawPointer? { get }
  /// Whether the store the index reads from is still alive.
  var isAlive: Bool { get }
  /// Re-checks the row stores whose rows the batch may have changed, then takes a new snapshot.
  @MainActor func publish()
}

/// The row stores made from one store for one `IdentifiedArray`, by row id, and what the current
/// batch touched.
@usableFromInline
final class RowIndex<ID: Hashable & Sendable, Element>: AnyRowIndex {
  /// The collection as last published (see RowObservation.swift): a retain, not a copy. Nil
  /// while an element action writes its element, so that the write is in place.
  var snapshot: IdentifiedArray<ID, Element>?
  /// The storage identity of `snapshot` when it was published.
  private(set) var identity: UnsafeRawPointer?
  /// The ids that element actions wrote in the current batch.
  var touched: Set<ID> = []
  /// The row stores that have been observed by a reader, by row id, while they live.
  private var observers: [ID: [WeakObservedStore]] = [:]
  /// Whether each row was present when a reader asked for its store (cleared when it changes),
  /// with the key path Observation is told about.
  private var presence: [ID: (isPresent: Bool, keyPath: KeyPath<RowPresence, Bool>)] = [:]
  /// What Observation is told the readers of rows' presence read (see `RowPresence`).
  private let presenceSubject = RowPresence()
  /// What the row stores show after their row leaves, observed or not, by row id, and how to
  /// tell their parent store to let go of them.
  private var lastStates: [ID: [WeakLastPresentState<Element>]] = [:]
  private let read: @MainActor () -> IdentifiedArray<ID, Element>?
  private(set) var isAlive = true
  /// The core of the store whose collection this indexes.
  private(set) weak var owner: AnyObject?

  /// An index of the collection that `read` reads (nil once `owner`, its store's core, is
  /// released).
  @MainActor
  init(owner: AnyObject, read: @escaping @MainActor () -> IdentifiedArray<ID, Element>?) {
    self.owner = owner
    self.read = read
    if let rows = read() {
      snapshot = rows
      identity = storageIdentity(of: rows)
      #if DEBUG
        copyForCheck(rows)
      #endif
    }
  }

  // MARK: - Row stores

  /// Registers `store` as observing the row `id`. A store stays registered while it lives,
  /// observing or not, so that a row re-rendered after each change (register, notified, register
  /// again) does not remove and insert its entry at every batch.
  @MainActor
  func register(_ store: any ObservedStore, for id: ID) {
    if let stores = observers[id], stores.contains(where: { $0.value === store }) { return }
    observers[id, default: []].append(WeakObservedStore(store))
  }

  /// Registers what a row store of the row `id` shows after the row leaves, and `leftState`,
  /// called after the batch in which the row leaves.
  @MainActor
  func register(
    _ lastState: LastPresentState<Element>, for id: ID,
    leftState: @escaping @MainActor () -> Void
  ) {
    lastStates[id, default: []].append(WeakLastPresentState(lastState, leftState: leftState))
  }

  // MARK: - Presence

  /// Registers a read of whether the row `id` is present.
  func observePresence(of id: ID, isPresent: Bool) {
    let keyPath = presence[id]?.keyPath ?? presenceSubject.nextKeyPath()
    presence[id] = (isPresent, keyPath)
    presenceSubject.registrar.access(presenceSubject, keyPath: keyPath)
  }

  /// Notifies the readers of whether the row `id` is present, and forgets them.
  private func presenceChanged(of id: ID) {
    guard let keyPath = presence.removeValue(forKey: id)?.keyPath else { return }
    presenceSubject.registrar.willSet(presenceSubject, keyPath: keyPath)
    presenceSubject.registrar.didSet(presenceSubject, keyPath: keyPath)
  }

  // MARK: - Publishing

  @MainActor
  func publish() {
    guard let rows = read() else {
      isAlive = false
      snapshot = nil
      return
    }
    let identity = storageIdentity(of: rows)
    let touched = self.touched
    self.touched.removeAll(keepingCapacity: true)
    if identity != self.identity || snapshot == nil {
      // NB: a write that did not go through an element action: every row may have changed, and
      // rows may have left (only such a write removes one). The snapshot still holds them.
      if !lastStates.isEmpty { keepLastStates(from: snapshot, in: rows) }
      let observers = self.observers
      for (id, stores) in observers {
        self.observers[id] = publishChanges(of: stores)
      }
      if !presence.isEmpty {
        var changed: [ID] = []
        for (id, was) in presence where (rows[id: id] != nil) != was.isPresent {
          changed.append(id)
        }
        for id in changed { presenceChanged(of: id) }
      }
    } else {
      #if DEBUG
        checkTouchedRows(touched, in: rows)
      #endif
      for id in touched {
        guard let stores = observers[id] else { continue }
        observers[id] = publishChanges(of: stores)
      }
    }
    snapshot = rows
    self.identity = identity
    #if DEBUG
      copyForCheck(rows)
    #endif
  }

  /// Gives the row stores of the rows that left since the last publication their last state,
  /// from `published` (the collection as last published), tells their parent stores to let go
  /// of them, and forgets the released ones.
  @MainActor
  private func keepLastStates(
    from published: IdentifiedArray<ID, Element>?,
    in rows: IdentifiedArray<ID, Element>
  ) {
    var released: [ID] = []
    for (id, states) in lastStates {
      if states.allSatisfy({ $0.value == nil }) {
        released.append(id)
        continue
      }
      guard rows[id: id] == nil else { continue }
      // NB: without the published collection (an element write copied it) it is not known
      // whether the row left in this batch or before: letting go twice is harmless.
      let state = published?[id: id]
      guard state != nil || published == nil else { continue }
      for lastState in states {
        if let state { lastState.value?.value = state }
        lastState.leftState()
      }
    }
    for id in released { lastStates[id] = nil }
  }

  @MainActor
  private func publishChanges(of stores: [WeakObservedStore]) -> [WeakObservedStore]? {
    var hasReleased = false
    for weakStore in stores {
      guard let store = weakStore.value else {
        hasReleased = true
        continue
      }
      store.publishChanges()
    }
    // NB: the usual case, every store alive: the same array is kept, not rebuilt.
    guard hasReleased else { return stores }
    let remaining = stores.filter { $0.value != nil }
    return remaining.isEmpty ? nil : remaining
  }

  #if DEBUG
    /// A copy of the collection's elements as last published, in storage of its own (so that it
    /// leaves the published storage's writes in place): what the debug check diffs against.
    private var publishedCopy: [Element] = []
    private let isEqual = equalityCheck(for: Element.self)

    /// Keeps a copy of `rows` to diff against after the next batch.
    private func copyForCheck(_ rows: IdentifiedArray<ID, Element>) {
      guard isEqual != nil else { return }
      publishedCopy.removeAll(keepingCapacity: true)
      publishedCopy.append(contentsOf: rows.elements)
    }

    /// The debug check of the narrow re-check: a full diff of the collection against its copy
    /// as last published finds no changed row that an element action did not touch. A failure
    /// means a write reached the collection without going through
    /// `RowObservation.write(row:of:_:)` and without changing its storage identity.
    private func checkTouchedRows(_ touched: Set<ID>, in rows: IdentifiedArray<ID, Element>) {
      guard let isEqual, publishedCopy.count == rows.count else { return }
      for (offset, element) in rows.elements.enumerated()
      where !isEqual(publishedCopy[offset], element) {
        let id = rows.ids[offset]
        assert(
          touched.contains(id),
          """
          Statecraft's row index missed a write: the row \(id) changed in a batch in which no \
          element action wrote it, and its row stores were not re-checked.
          """)
      }
    }
  #endif
}

/// What Observation is told the readers of a row index's rows' presence read: one key path
/// per row asked for, `\RowPresence.[row: n]`.
///
/// Not the index itself: a key path through a generic type is built by demangling its generic
/// arguments, several microseconds for each row of a list's first render; through this type it
/// is an allocation.
final class RowPresence: Observable {
  let registrar = ObservationRegistrar()
  private var rowsAsked = 0

  /// Never read through: it names the row in the key path.
  subscript(row row: Int) -> Bool { false }

  /// A key path no reader of this index's presence was told about yet.
  func nextKeyPath() -> KeyPath<RowPresence, Bool> {
    rowsAsked += 1
    return \.[row: rowsAsked]
  }
}

/// The state a scoped store shows once the state it reads through to is gone (an optional that
/// became nil, a row that left its collection): the last state it had.
final class LastPresentState<State> {
  var value: State
  init(_ value: State) { self.value = value }

  /// Keeps `state` when it is present, and returns what the store shows.
  func keep(_ state: State?) -> State {
    if let state { value = state }
    return value
  }
}

struct WeakLastPresentState<State> {
  weak var value: LastPresentState<State>?
  /// Tells the parent store of the row store to let go of it.
  let leftState: @MainActor () -> Void

  init(_ value: LastPresentState<State>, leftState: @escaping @MainActor () -> Void) {
    self.value = value
    self.leftState = leftState
  }
}
