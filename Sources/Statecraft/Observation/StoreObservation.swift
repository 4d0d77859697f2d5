// Owns what the readers of one store observe: the key paths
// read (each an `ObservedValue`, ObservedValue.swift) with their flags by slot, the read sites a
// read again finds them by, and comparing them after each batch. A store holds one, inline
// (`Store.observation`), and the operations that tell a reader something are the store's, here.
// After each batch the store tree's `ObserverRegistry` re-checks the stores whose readers
// observe something; a row store is re-checked by its row index instead, only when the batch
// may have written its row (Rows/RowObservation.swift). Streams, pulses and `observe` closures
// are told through the registry too (StoreStreams.swift, ObserveToken.swift).
import Observation

/// What the readers of one store observe, held inline in the store.
///
/// A read (`store.count`) is made again far more often than first made: a view re-renders, an
/// `observe` closure re-runs. So a read again finds what it observes by its read site, two
/// words compared per entry (`readAgain(_:in:)`, inlined where the read is written), and only a
/// first read builds an ``ObservedValue`` (`Store.trackRead(_:value:)`).
///
/// NB: a value in the store, not an object it points to: a read again reaches the read sites at
/// a constant offset from the store, where an object cost a dependent load (a row store's read
/// measured 6 % slower, R2). Its mutating methods never call out of it: what tells a reader
/// (Observation's registrar, an `observe` closure), and so may read the store again, is the
/// store's (below), so that no access to this value is held across such a call. The registrar
/// is the store's too (`Store.registrar`, a `let`): a read borrows it, where a field of this
/// value, a `var`, is copied (a retain and a release at every read: R1 read 19 % to 41 % slower).
@MainActor
@usableFromInline
struct StoreObservation<State, Action> {
  /// What readers have observed since the value last changed: each compared after every batch.
  var observedValues: [ObservedValue<State, Action>] = []
  /// Every key path readers have observed, observed now or not, by slot: what a read builds
  /// once (see `observedKeyPath(_:value:)`). It holds no value of a key path that is not
  /// observed now.
  var knownObservedValues: [ObservedValue<State, Action>] = []
  /// `knownObservedValues` by key path, for a read through a key path object no read site names.
  var knownKeyPaths: [AnyKeyPath: ObservedValue<State, Action>] = [:]
  /// The flags of each observed key path, by slot (see `ObservationFlags`).
  @usableFromInline var flags: [ObservationFlags] = []
  /// The key paths reads went through, with what a read again needs: it finds its entry by
  /// comparing two words per entry in `readSiteKeys`, without hashing the key path.
  @usableFromInline var readSites: [ReadSite] = []
  /// The keys of `readSites`, in the same order.
  @usableFromInline var readSiteKeys: [ReadSiteKey] = []
  /// Keeps alive the key path objects whose identity names a read site.
  var readSiteKeyPaths: [AnyKeyPath] = []

  @usableFromInline init() {}

  /// Whether any key path is observed now: the store is re-checked after each batch until none
  /// is.
  var isObserving: Bool { !observedValues.isEmpty }

  /// Registers a read of `keyPath` made again through a call site whose key path is observed
  /// now, outside an `observe` closure, with Observation, as `ObservedValue.read(_:)` does.
  /// False when the read needs `Store.trackRead(_:value:)`.
  @inlinable @inline(__always)
  mutating func readAgain<Value>(
    _ keyPath: KeyPath<State, Value>, in store: Store<State, Action>
  ) -> Bool {
    // NB: the keys are scanned in an array of their own, of a trivial type: finding one retains
    // nothing, and needs no closure (which would check its isolation at run time).
    guard let index = readSiteKeys.firstIndex(of: ReadSiteKey(keyPath)) else { return false }
    let site = readSites[index]
    guard flags[site.slot].isObserved, ObserveToken.current == nil else { return false }
    // NB: written only when it changes, so that a read again does not check the array's
    // uniqueness.
    if !flags[site.slot].hasRegistrarReaders {
      flags[site.slot].hasRegistrarReaders = true
    }
    // NB: the registrar records the read; it calls no reader.
    Self.access(store, site.storeKeyPath)
    return true
  }

  /// Tells the store's registrar of a read of `storeKeyPath`, a `KeyPath<Store, Int>`, without
  /// retaining it.
  // NB: nonisolated, so that its closure has no isolation to check at run time: it only calls
  // the registrar, which may be called from anywhere.
  @inlinable @inline(__always)
  nonisolated static func access(
    _ store: Store<State, Action>, _ storeKeyPath: Unmanaged<AnyKeyPath>
  ) {
    // NB: every site's store key path is a `KeyPath<Store, Int>` (see `ObservedValue`).
    storeKeyPath._withUnsafeGuaranteedRef {
      store.registrar.access(
        store, keyPath: unsafeDowncast($0, to: KeyPath<Store<State, Action>, Int>.self))
    }
  }

  /// What reads through `keyPath` observe: found by its read site, else by its value (another
  /// object for the same computed key path), else made (with `value`).
  mutating func observedKeyPath<Value>(
    _ keyPath: KeyPath<State, Value>, value: Value
  ) -> ObservedValue<State, Action> {
    let key = ReadSiteKey(keyPath)
    if let index = readSiteKeys.firstIndex(of: key) {
      return knownObservedValues[readSites[index].slot]
    }
    // NB: a key path read again after a change (a view re-rendering) reuses what its first read
    // built: the store's key path, which the runtime instantiates (demangling its generic
    // arguments) each time it is written, and the equality check, a dynamic cast to `Equatable`.
    // Together they cost about ten times the rest of a read.
    let observed: ObservedValue<State, Action>
    if let known = knownKeyPaths[keyPath] {
      observed = known
    } else {
      observed = ObservedValue(keyPath: keyPath, value: value, slot: flags.count)
      flags.append(ObservationFlags())
      knownObservedValues.append(observed)
      knownKeyPaths[keyPath] = observed
    }
    if readSites.count < ReadSite.limit {
      if key.isIdentity { readSiteKeyPaths.append(keyPath) }
      readSites.append(
        ReadSite(slot: observed.slot, storeKeyPath: Unmanaged.passUnretained(observed.storeKeyPath))
      )
      readSiteKeys.append(key)
    }
    return observed
  }

  /// Takes the key paths whose values differ in `state` from the ones their readers saw out of
  /// the observed ones, and returns them: they are not observed until read again.
  mutating func takeChanged(in state: State) -> [ObservedValue<State, Action>] {
    var changed: [ObservedValue<State, Action>] = []
    for observed in observedValues where observed.hasChanged(state) {
      changed.append(observed)
    }
    guard !changed.isEmpty else { return [] }
    for observed in changed { flags[observed.slot].isObserved = false }
    // NB: a row store's one observed field changed: no predicate to run (generic code here, so
    // `removeAll(where:)` looks up its metadata at run time).
    if changed.count == observedValues.count {
      observedValues.removeAll(keepingCapacity: true)
    } else {
      observedValues.removeAll { !flags[$0.slot].isObserved }
    }
    return changed
  }
}

extension Store: ObservedStore {
  /// Registers a read of `keyPath` with Observation (or the `observe` closure running), and
  /// remembers its value to compare after the next batch.
  @usableFromInline
  func trackRead<Value>(_ keyPath: KeyPath<State, Value>, value: Value) {
    let observed = observation.observedKeyPath(keyPath, value: value)
    observed.read(self)
    guard !observation.flags[observed.slot].isObserved else { return }
    observed.remember(value)
    if observation.observedValues.isEmpty { core.register(observedStore: self) }
    observation.observedValues.append(observed)
    observation.flags[observed.slot].isObserved = true
  }

  /// Called after each batch the store's readers observe something in (see `ObserverRegistry`):
  /// notifies the readers of the key paths whose values changed, and forgets those key paths
  /// until they are read again.
  @usableFromInline
  package func publishChanges() {
    let changed = observation.takeChanged(in: core.state)
    for observed in changed {
      observed.changed(self)
      observed.forgetReaders(self)
    }
  }

  @usableFromInline
  package var isObserving: Bool { observation.isObserving }

  /// What the key path Observation is told about for an observed field names: the field's slot
  /// (see `ObservedValue.storeKeyPath`). Never read through.
  subscript(observationSlot slot: Int) -> Int { slot }

  /// `\Store.[observationSlot: slot]`, made once per store type and slot: the runtime builds a
  /// key path through a generic type by demangling its generic arguments, which costs several
  /// microseconds, and every row store of a list reads its fields in the same slots.
  static func observationKeyPath(slot: Int) -> KeyPath<Store, Int> {
    let type = ObjectIdentifier(Store.self)
    if let paths = ObservationKeyPaths.byStoreType[type], slot < paths.count {
      // NB: the entries for this store type are all `KeyPath<Store, Int>`s (below).
      return unsafeDowncast(paths[slot], to: KeyPath<Store, Int>.self)
    }
    var paths = ObservationKeyPaths.byStoreType.removeValue(forKey: type) ?? []
    while paths.count <= slot { paths.append(\Store.[observationSlot: paths.count]) }
    ObservationKeyPaths.byStoreType[type] = paths
    return unsafeDowncast(paths[slot], to: KeyPath<Store, Int>.self)
  }
}
