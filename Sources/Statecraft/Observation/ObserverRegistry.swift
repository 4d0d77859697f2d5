// Owns what a store tree tells after each batch, whatever its state and action types: the stores
// whose readers observed key paths, the stream observers (`states`, `values`, pulses, subscribers),
// the scheduled `observe` closures, the row indexes (see Rows/), and publishing to all of them.

/// The observers of a store tree, told once per batch by ``publish()``.
@MainActor
final class ObserverRegistry {
  // NB: `publish()` runs after every batch; its tables are not checked for exclusive access at
  // run time (it reads them, then calls out; nothing holds an access across a call).
  /// Stores whose observed key paths are compared after each batch.
  @exclusivity(unchecked) private var observedStores: [ObjectIdentifier: WeakObservedStore] = [:]
  @exclusivity(unchecked) private var streamObservers: [UInt64: StreamObserver] = [:]
  private var nextStreamObserver: UInt64 = 0
  @exclusivity(unchecked) private var scheduledObservations: [ObserveToken] = []

  /// What the reducers of the store tree reach while the root reduces: the row indexes and the
  /// pulse log.
  let reduceContext: ReduceContext
  /// The row stores' indexes (see Rows/RowObservation.swift).
  let rows: RowIndexes

  init() {
    let reduceContext = ReduceContext()
    self.reduceContext = reduceContext
    rows = RowIndexes(context: reduceContext)
  }

  isolated deinit {
    for observer in streamObservers.values { observer.finish() }
  }

  // MARK: - Registering

  /// Registers a store whose readers observe key paths, to be re-checked after each batch. (Row
  /// stores register with their row index instead.)
  func register(observedStore: any ObservedStore) {
    observedStores[ObjectIdentifier(observedStore)] = WeakObservedStore(observedStore)
  }

  /// How many streams (and optional scopes) are told about each batch (for tests).
  var streamObserverCount: Int { streamObservers.count }

  /// Registers a stream observer: `publish` runs after each batch until it returns false;
  /// `finish` runs if the store tree is released first.
  func addStreamObserver(
    publish: @escaping @MainActor () -> Bool, finish: @escaping @MainActor () -> Void
  ) {
    streamObservers[nextStreamObserver] = StreamObserver(publish: publish, finish: finish)
    nextStreamObserver &+= 1
  }

  /// Runs `observation` after the current batch is published.
  func schedule(_ observation: ObserveToken) {
    scheduledObservations.append(observation)
    // NB: a shared value changed (by another store, or a locked mutation), maybe outside any
    // batch of this store: it runs this store's scheduled observations once the change is over.
    if SharedChangeHooks.isPublishing { SharedChangeHooks.scheduled(in: self) }
  }

  /// Runs the `observe` closures scheduled since the last batch: for a shared value that
  /// changed outside this store's batches.
  func runScheduledObservations() {
    guard !scheduledObservations.isEmpty else { return }
    let observations = scheduledObservations
    scheduledObservations.removeAll()
    for observation in observations { observation.run() }
  }

  // MARK: - Publishing

  /// Tells observers about the batch that just ended: Observation first (only key paths whose
  /// values changed), then row stores, then streams, then `observe` closures whose inputs
  /// changed.
  func publish() {
    if !observedStores.isEmpty {
      // NB: removing entries while iterating `observedStores` would copy the dictionary (and
      // every weak reference in it) at each batch in which an observer stops observing.
      var idle: [ObjectIdentifier] = []
      for (id, weakStore) in observedStores {
        guard let store = weakStore.value else {
          idle.append(id)
          continue
        }
        store.publishChanges()
        if !store.isObserving { idle.append(id) }
      }
      for id in idle where observedStores[id]?.value?.isObserving != true {
        observedStores[id] = nil
      }
    }
    if !reduceContext.indexes.isEmpty { rows.publish() }
    if !streamObservers.isEmpty {
      for (id, observer) in streamObservers where !observer.publish() {
        streamObservers[id] = nil
      }
    }
    runScheduledObservations()
    if !reduceContext.pulseLog.isEmpty { reduceContext.pulseLog.removeAll(keepingCapacity: true) }
  }
}

/// A store that compares what its readers observed after each batch.
@MainActor
@usableFromInline
package protocol ObservedStore: AnyObject {
  func publishChanges()
  var isObserving: Bool { get }
}

@usableFromInline
struct WeakObservedStore {
  weak var value: (any ObservedStore)?
  init(_ value: any ObservedStore) { self.value = value }
}

struct StreamObserver {
  /// Emits what changed; returns false once the stream has ended.
  let publish: @MainActor () -> Bool
  let finish: @MainActor () -> Void
}
