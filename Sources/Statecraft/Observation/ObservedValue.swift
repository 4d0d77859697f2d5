import Observation

/// One key path a reader of a store observed, with the value it saw.
///
/// The store keeps the value, not the whole state: holding a copy of the whole state would make
/// every in-place mutation by the reducer copy the collections it touches.
///
/// One design with `Shared`'s `ObservedField` (Sharing/SharedReference.swift): a final class
/// whose parts typed by the key path's `Value` are closures made once, at the key path's first
/// read, and whose read path reaches the typed key path by an unchecked downcast.
@MainActor
@usableFromInline
final class ObservedValue<State, Action> {
  /// The `observe` closures that read the key path, with the run that read it (see
  /// `ObserveToken.current`).
  private var readers: [(token: WeakObserveToken, run: UInt64)] = []
  /// Where the store keeps this key path's flags, in `StoreObservation.flags`: a read again
  /// checks and sets them there without touching (so retaining) this object.
  let slot: Int
  /// The key path Observation is told about: `\Store.[observationSlot: slot]`. Observation
  /// hashes it at every read inside a tracking: an integer argument hashes in a few
  /// instructions, where `\Store.[dynamicMember: keyPath]` would hash every component of the
  /// state's key path.
  let storeKeyPath: KeyPath<Store<State, Action>, Int>
  /// The value the readers saw, a `SeenValue<Value>`: nil while the key path is not observed.
  private let seen: AnyObject
  /// Whether the value at the key path in `state` differs from the one the readers saw (always
  /// true for a value that is not `Equatable`, or while none is seen).
  let hasChanged: (_ state: State) -> Bool
  /// Tells Observation that the value changed.
  private let notify: (Store<State, Action>) -> Void
  /// Lets go of the value seen.
  private let forget: () -> Void

  init<Value>(keyPath: KeyPath<State, Value>, value: Value, slot: Int) {
    let seen = SeenValue(value)
    let storeKeyPath = Store<State, Action>.observationKeyPath(slot: slot)
    self.slot = slot
    self.seen = seen
    self.storeKeyPath = storeKeyPath
    self.forget = { seen.value = nil }
    self.notify = {
      $0.registrar.willSet($0, keyPath: storeKeyPath)
      $0.registrar.didSet($0, keyPath: storeKeyPath)
    }
    if let isEqual = equalityCheck(for: Value.self) {
      self.hasChanged = { state in
        guard let value = seen.value else { return true }
        return !isEqual(value, state[keyPath: keyPath])
      }
    } else {
      self.hasChanged = { _ in true }
    }
  }

  /// Remembers `value`, of the key path's `Value`, as the one the readers saw.
  func remember<Value>(_ value: Value) {
    // NB: `seen` was made for this `Value`: the store finds this object by a key path to a
    // `Value` (see `Store.trackRead`).
    unsafeDowncast(seen, to: SeenValue<Value>.self).value = value
  }

  /// Registers a read of the key path, whose value is a `Value`: by the `observe` closure
  /// running now, if any, else with Observation.
  func read(_ store: Store<State, Action>) {
    if let token = ObserveToken.current {
      if let last = readers.last, last.token.value === token, last.run == token.runs { return }
      readers.append((WeakObserveToken(token), token.runs))
    } else {
      store.observation.flags[slot].hasRegistrarReaders = true
      store.registrar.access(store, keyPath: storeKeyPath)
    }
  }

  /// Tells the key path's readers that its value changed: Observation's, and each `observe`
  /// closure whose latest run read it.
  func changed(_ store: Store<State, Action>) {
    if store.observation.flags[slot].hasRegistrarReaders { notify(store) }
    for reader in readers {
      guard let token = reader.token.value, token.runs == reader.run else { continue }
      token.schedule(in: store.core.runtime)
    }
  }

  /// Forgets the readers and lets go of the value seen: the key path is no longer observed until
  /// it is read again.
  func forgetReaders(_ store: Store<State, Action>) {
    readers.removeAll(keepingCapacity: true)
    store.observation.flags[slot] = ObservationFlags()
    forget()
  }
}

/// The value the readers of a key path saw.
final class SeenValue<Value> {
  var value: Value?
  init(_ value: Value) { self.value = value }
}

/// The key paths stores tell Observation about, by store type (see
/// `Store.observationKeyPath(slot:)`): as many per type as the most fields one of its stores
/// observed.
@MainActor
enum ObservationKeyPaths {
  static var byStoreType: [ObjectIdentifier: [AnyKeyPath]] = [:]
}

/// What a store keeps for each key path its readers observed, where a read finds it without
/// touching the key path's `ObservedValue`.
@usableFromInline
struct ObservationFlags {
  /// Whether the key path is observed now: its store holds it among `observedValues`, to
  /// compare after the next batch.
  @usableFromInline var isObserved = false
  /// Whether a reader registered with the store's Observation registrar (a view, a
  /// `withObservationTracking`) since the value last changed: only then is the registrar told
  /// of the change.
  @usableFromInline var hasRegistrarReaders = false

  @usableFromInline init() {}
}

/// Names the key path a store was read through, in a form a read compares in one or two words.
///
/// A key path to a stored property (`\.count`, `\.profile.name`) is named by its offset in
/// the state and its value's type. Where the key path is a literal at the read, the optimizer
/// folds both into constants: the read neither instantiates the key path object nor hashes it.
/// Any other key path (a computed property, an optional chain, a subscript) is named by the
/// identity of its object: a literal is one object per call site.
@usableFromInline
struct ReadSiteKey: Equatable {
  /// The stored property's offset, or -1 for a key path named by its object.
  @usableFromInline let offset: Int
  /// The value's type, or the key path object.
  @usableFromInline let id: ObjectIdentifier

  @inlinable @inline(__always)
  init<State, Value>(_ keyPath: KeyPath<State, Value>) {
    // NB: two stored key paths with the same offset and value type read the same bytes: the
    // one exception, fields of a zero-sized type that share an offset, have no bytes to differ.
    if let offset = MemoryLayout<State>.offset(of: keyPath) {
      self.offset = offset
      self.id = ObjectIdentifier(Value.self)
    } else {
      self.offset = -1
      self.id = ObjectIdentifier(keyPath)
    }
  }

  /// Whether the key names its key path by the object's identity, which must then stay alive.
  var isIdentity: Bool { offset < 0 }
}

/// A key path a store was read through, and what a read again through it needs.
///
/// A store's read sites grow with the places that read it (a key path named by its object) or
/// the fields read (one named by its offset): at most `limit`.
@usableFromInline
struct ReadSite {
  /// How many entries a store keeps: past it, a read through yet another key path object (one
  /// built at run time for each read) finds what it observes by hashing its key path.
  static var limit: Int { 64 }
  /// Where the key path's flags are in `StoreObservation.flags`.
  @usableFromInline let slot: Int
  // NB: unmanaged, so that a read passes it to the registrar without a retain and a release:
  // `StoreObservation.knownObservedValues` holds the `ObservedValue` that holds it while the
  // store lives.
  /// The key path Observation is told about (`ObservedValue.storeKeyPath`).
  @usableFromInline let storeKeyPath: Unmanaged<AnyKeyPath>
}
