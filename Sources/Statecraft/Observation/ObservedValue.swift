import Observation

/// One key path a reader of a store observed, with the value it saw.
///
/// The store keeps the value, not the whole state: holding a copy of the whole state would make
/// every in-place mutation by the reducer copy the collections it touches.
@MainActor
class ObservedValue<State, Action> {
  /// The `observe` closures that read the key path, with the run that read it (see
  /// `ObserveToken.current`).
  private var readers: [(token: WeakObserveToken, run: UInt64)] = []
  /// Whether a reader registered with the store's Observation registrar (a view, a
  /// `withObservationTracking`): only then is the registrar told of the change.
  var hasRegistrarReaders = false

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
final class ObservedKeyPath<State, Action, Value>: ObservedValue<State, Action> {
  let keyPath: KeyPath<State, Value>
  let storeKeyPath: KeyPath<Store<State, Action>, Value>
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

extension Store: ObservedStore {
  /// Registers a read of `keyPath` with Observation, and remembers its value to compare after
  /// the next batch.
  func trackRead<Value>(_ keyPath: KeyPath<State, Value>, value: Value) {
    if let observed = observedValues[keyPath] {
      observed.read(self)
      return
    }
    // NB: a key path read again after a change (a view re-rendering) reuses what its first read
    // built: the store's key path `\Store.[dynamicMember: keyPath]`, which the runtime
    // instantiates (demangling its generic arguments) each time it is written, and the equality
    // check, a dynamic cast to `Equatable`. Together they cost about ten times the rest of a read.
    let observed: ObservedKeyPath<State, Action, Value>
    if let known = knownKeyPaths[keyPath] as? ObservedKeyPath<State, Action, Value> {
      observed = known
      observed.value = value
    } else {
      observed = ObservedKeyPath(
        keyPath: keyPath, storeKeyPath: \Store.[dynamicMember: keyPath], value: value)
      knownKeyPaths[keyPath] = observed
    }
    observed.read(self)
    if observedValues.isEmpty { core.register(observedStore: self) }
    observedValues[keyPath] = observed
  }

  /// Called by the root after each batch: notifies the observers of the key paths whose values
  /// changed, and forgets them until they are read again.
  @usableFromInline
  package func publishChanges() {
    let state = core.state
    var changed: [(AnyKeyPath, ObservedValue<State, Action>)] = []
    for (keyPath, observed) in observedValues where observed.hasChanged(in: state) {
      changed.append((keyPath, observed))
    }
    // NB: removing entries while iterating `observedValues` would copy the dictionary.
    for (keyPath, _) in changed { observedValues[keyPath] = nil }
    for (_, observed) in changed {
      observed.changed(self)
      observed.forgetReaders()
    }
  }

  @usableFromInline
  package var isObserving: Bool { !observedValues.isEmpty }
}
