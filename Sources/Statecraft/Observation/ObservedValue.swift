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
  // NB: `@exclusivity(unchecked)` on the flags a read checks and sets: they are touched only on
  // the main actor, and no access to them is held across a call.
  /// Whether a reader registered with the store's Observation registrar (a view, a
  /// `withObservationTracking`): only then is the registrar told of the change.
  @usableFromInline @exclusivity(unchecked) var hasRegistrarReaders = false
  /// Whether the key path is observed now: its store holds it among `observedValues`, to
  /// compare after the next batch.
  @usableFromInline @exclusivity(unchecked) var isObserved = false
  /// The key path Observation is told about: `\Store.[dynamicMember: keyPath]`, a
  /// `KeyPath<Store<State, Action>, Value>` for the `Value` the key path reads.
  @usableFromInline let storeKeyPath: AnyKeyPath
  /// The value the readers saw, a `SeenValue<Value>`: nil while the key path is not observed.
  private let seen: AnyObject
  /// Whether the value at the key path in `state` differs from the one the readers saw (always
  /// true for a value that is not `Equatable`, or while none is seen).
  let hasChanged: (_ state: State) -> Bool
  /// Tells Observation that the value changed.
  private let notify: (Store<State, Action>) -> Void
  /// Lets go of the value seen.
  private let forget: () -> Void

  init<Value>(
    keyPath: KeyPath<State, Value>,
    storeKeyPath: KeyPath<Store<State, Action>, Value>,
    value: Value
  ) {
    let seen = SeenValue(value)
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
  func read<Value>(_ store: Store<State, Action>, as _: Value.Type) {
    if let token = ObserveToken.current {
      if let last = readers.last, last.token.value === token, last.run == token.runs { return }
      readers.append((WeakObserveToken(token), token.runs))
    } else {
      hasRegistrarReaders = true
      store.registrar.access(
        store,
        keyPath: unsafeDowncast(storeKeyPath, to: KeyPath<Store<State, Action>, Value>.self))
    }
  }

  /// Tells the key path's readers that its value changed: Observation's, and each `observe`
  /// closure whose latest run read it.
  func changed(_ store: Store<State, Action>) {
    if hasRegistrarReaders { notify(store) }
    for reader in readers {
      guard let token = reader.token.value, token.runs == reader.run else { continue }
      token.schedule(in: store.core.runtime)
    }
  }

  /// Forgets the readers and lets go of the value seen: the key path is no longer observed until
  /// it is read again.
  func forgetReaders() {
    readers.removeAll(keepingCapacity: true)
    hasRegistrarReaders = false
    forget()
  }
}

/// The value the readers of a key path saw.
final class SeenValue<Value> {
  var value: Value?
  init(_ value: Value) { self.value = value }
}

/// A key path object that a store was read through, and what reads through it observe.
///
/// A key path literal is one object per call site, so a store's entries grow with the places
/// that read it, and a read again through a call site finds its entry by comparing one word per
/// entry: less than hashing the key path (all of its components), as a dictionary lookup does.
@usableFromInline
struct ReadSite<State, Action> {
  /// How many entries a store keeps: past it, a read through yet another key path object (one
  /// built at run time for each read) finds what it observes by hashing its key path.
  static var limit: Int { 64 }
  /// The identity of the key path object.
  @usableFromInline let id: ObjectIdentifier
  /// Keeps the key path object alive while its identity names the entry.
  let keyPath: AnyKeyPath
  // NB: `unowned(unsafe)`, so that a read finds it without a retain and a release: the store's
  // `knownKeyPaths` holds every `ObservedValue` it made for as long as the store lives.
  @usableFromInline unowned(unsafe) let observed: ObservedValue<State, Action>
}

extension Store: ObservedStore {
  /// Registers a read of `keyPath` made again through a call site whose key path is observed
  /// now, outside an `observe` closure: tells Observation, as `ObservedValue.read(_:as:)` does.
  /// False when the read needs `trackRead(_:value:)`.
  @inlinable @inline(__always)
  func observeReadAgain<Value>(_ keyPath: KeyPath<State, Value>) -> Bool {
    // NB: the identities are scanned in an array of their own, of a trivial type: finding one
    // retains nothing, and needs no closure (which would check its isolation at run time).
    guard let index = readSiteIDs.firstIndex(of: ObjectIdentifier(keyPath)) else { return false }
    let observed = readSites[index].observed
    guard observed.isObserved, ObserveToken.current == nil else { return false }
    observed.hasRegistrarReaders = true
    // NB: the entry was made for a key path object to a `Value` (this one), with the store's
    // key path to that `Value` (see `trackRead`).
    registrar.access(
      self,
      keyPath: unsafeDowncast(observed.storeKeyPath, to: KeyPath<Store, Value>.self))
    return true
  }

  /// Registers a read of `keyPath` with Observation, and remembers its value to compare after
  /// the next batch.
  @usableFromInline
  func trackRead<Value>(_ keyPath: KeyPath<State, Value>, value: Value) {
    let observed = observedKeyPath(keyPath, value: value)
    observed.read(self, as: Value.self)
    guard !observed.isObserved else { return }
    observed.remember(value)
    if observedValues.isEmpty { core.register(observedStore: self) }
    observedValues.append(observed)
    observed.isObserved = true
  }

  /// What reads through `keyPath` observe: found by the key path object's identity, else by
  /// its value (another object for the same key path), else made (with `value`).
  private func observedKeyPath<Value>(
    _ keyPath: KeyPath<State, Value>, value: Value
  ) -> ObservedValue<State, Action> {
    let id = ObjectIdentifier(keyPath)
    for site in readSites where site.id == id { return site.observed }
    // NB: a key path read again after a change (a view re-rendering) reuses what its first read
    // built: the store's key path `\Store.[dynamicMember: keyPath]`, which the runtime
    // instantiates (demangling its generic arguments) each time it is written, and the equality
    // check, a dynamic cast to `Equatable`. Together they cost about ten times the rest of a read.
    let observed: ObservedValue<State, Action>
    if let known = knownKeyPaths[keyPath] {
      observed = known
    } else {
      observed = ObservedValue(
        keyPath: keyPath, storeKeyPath: \Store.[dynamicMember: keyPath], value: value)
      knownKeyPaths[keyPath] = observed
    }
    if readSites.count < ReadSite<State, Action>.limit {
      readSites.append(ReadSite(id: id, keyPath: keyPath, observed: observed))
      readSiteIDs.append(id)
    }
    return observed
  }

  /// Called by the root after each batch: notifies the observers of the key paths whose values
  /// changed, and forgets them until they are read again.
  @usableFromInline
  package func publishChanges() {
    let state = core.state
    var changed: [ObservedValue<State, Action>] = []
    for observed in observedValues where observed.hasChanged(state) {
      changed.append(observed)
    }
    guard !changed.isEmpty else { return }
    for observed in changed { observed.isObserved = false }
    // NB: a row store's one observed field changed: no predicate to run (generic code here, so
    // `removeAll(where:)` looks up its metadata at run time).
    if changed.count == observedValues.count {
      observedValues.removeAll(keepingCapacity: true)
    } else {
      observedValues.removeAll { !$0.isObserved }
    }
    for observed in changed {
      observed.changed(self)
      observed.forgetReaders()
    }
  }

  @usableFromInline
  package var isObserving: Bool { !observedValues.isEmpty }
}
