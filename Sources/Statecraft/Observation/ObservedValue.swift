import Observation

/// One key path a reader of a store observed, with the value it saw.
///
/// The store keeps the value, not the whole state: holding a copy of the whole state would make
/// every in-place mutation by the reducer copy the collections it touches.
@MainActor
@usableFromInline
class ObservedValue<State, Action> {
  /// The `observe` closures that read the key path, with the run that read it (see
  /// `ObserveToken.current`).
  private var readers: [(token: WeakObserveToken, run: UInt64)] = []
  // NB: `@exclusivity(unchecked)` on the flags a read checks and sets: they are touched only on
  // the main actor, and no access to them is held across a call.
  /// Whether a reader registered with the store's Observation registrar (a view, a
  /// `withObservationTracking`): only then is the registrar told of the change.
  @usableFromInline @exclusivity(unchecked) final var hasRegistrarReaders = false
  /// Whether the key path is observed now: its store holds it among `observedValues`, to
  /// compare after the next batch.
  @usableFromInline @exclusivity(unchecked) final var isObserved = false

  /// Registers a read of the key path: by the `observe` closure running now, if any, else with
  /// Observation.
  func read(_ store: Store<State, Action>) {
    if let token = ObserveToken.current {
      if let last = readers.last, last.token.value === token, last.run == token.runs { return }
      readers.append((WeakObserveToken(token), token.runs))
    } else {
      hasRegistrarReaders = true
      access(store)
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

  /// Forgets the readers: the key path is no longer observed until it is read again.
  func forgetReaders() {
    readers.removeAll(keepingCapacity: true)
    hasRegistrarReaders = false
    forget()
  }

  func hasChanged(in state: State) -> Bool {
    fatalError("ObservedValue is abstract: ObservedKeyPath overrides this.")
  }
  func access(_ store: Store<State, Action>) {
    fatalError("ObservedValue is abstract: ObservedKeyPath overrides this.")
  }
  func notify(_ store: Store<State, Action>) {
    fatalError("ObservedValue is abstract: ObservedKeyPath overrides this.")
  }
  /// Lets go of the value seen: the key path is no longer observed until it is read again.
  func forget() {
    fatalError("ObservedValue is abstract: ObservedKeyPath overrides this.")
  }
}

@MainActor
@usableFromInline
final class ObservedKeyPath<State, Action, Value>: ObservedValue<State, Action> {
  let keyPath: KeyPath<State, Value>
  /// The key path Observation is told about: `\Store.[dynamicMember: keyPath]`.
  @usableFromInline let storeKeyPath: KeyPath<Store<State, Action>, Value>
  /// The value the readers saw; nil while the key path is not observed.
  var value: Value?
  let isEqual: ((Value, Value) -> Bool)?

  init(
    keyPath: KeyPath<State, Value>,
    storeKeyPath: KeyPath<Store<State, Action>, Value>,
    value: Value
  ) {
    self.keyPath = keyPath
    self.storeKeyPath = storeKeyPath
    self.value = value
    self.isEqual = equalityCheck(for: Value.self)
  }

  override func hasChanged(in state: State) -> Bool {
    guard let isEqual, let value else { return true }
    return !isEqual(value, state[keyPath: keyPath])
  }

  override func access(_ store: Store<State, Action>) {
    store.registrar.access(store, keyPath: storeKeyPath)
  }

  override func notify(_ store: Store<State, Action>) {
    store.registrar.willSet(store, keyPath: storeKeyPath)
    store.registrar.didSet(store, keyPath: storeKeyPath)
  }

  override func forget() {
    value = nil
  }
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
  /// now, outside an `observe` closure: tells Observation, as `ObservedValue.read(_:)` does.
  /// False when the read needs `trackRead(_:value:)`.
  @inlinable @inline(__always)
  func observeReadAgain<Value>(_ keyPath: KeyPath<State, Value>) -> Bool {
    // NB: the identities are scanned in an array of their own, of a trivial type: finding one
    // retains nothing, and needs no closure (which would check its isolation at run time).
    guard let index = readSiteIDs.firstIndex(of: ObjectIdentifier(keyPath)) else { return false }
    let found = readSites[index].observed
    guard found.isObserved, ObserveToken.current == nil else { return false }
    // NB: the entry was made for a key path object to a `Value` (this one), with an
    // `ObservedKeyPath` of that `Value` (see `trackRead`).
    let observed = unsafeDowncast(found, to: ObservedKeyPath<State, Action, Value>.self)
    observed.hasRegistrarReaders = true
    registrar.access(self, keyPath: observed.storeKeyPath)
    return true
  }

  /// Registers a read of `keyPath` with Observation, and remembers its value to compare after
  /// the next batch.
  @usableFromInline
  func trackRead<Value>(_ keyPath: KeyPath<State, Value>, value: Value) {
    let observed = observedKeyPath(keyPath, value: value)
    observed.read(self)
    guard !observed.isObserved else { return }
    observed.value = value
    if observedValues.isEmpty { core.register(observedStore: self) }
    observedValues.append(observed)
    observed.isObserved = true
  }

  /// What reads through `keyPath` observe: found by the key path object's identity, else by
  /// its value (another object for the same key path), else made (with `value`).
  private func observedKeyPath<Value>(
    _ keyPath: KeyPath<State, Value>, value: Value
  ) -> ObservedKeyPath<State, Action, Value> {
    let id = ObjectIdentifier(keyPath)
    for site in readSites where site.id == id {
      return unsafeDowncast(site.observed, to: ObservedKeyPath<State, Action, Value>.self)
    }
    // NB: a key path read again after a change (a view re-rendering) reuses what its first read
    // built: the store's key path `\Store.[dynamicMember: keyPath]`, which the runtime
    // instantiates (demangling its generic arguments) each time it is written, and the equality
    // check, a dynamic cast to `Equatable`. Together they cost about ten times the rest of a read.
    let observed: ObservedKeyPath<State, Action, Value>
    if let known = knownKeyPaths[keyPath] as? ObservedKeyPath<State, Action, Value> {
      observed = known
    } else {
      observed = ObservedKeyPath(
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
    for observed in observedValues where observed.hasChanged(in: state) {
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
