// Owns what a store tree shares at its root, whatever its state and action types: its effect
// registry (EffectRegistry.swift), its observer registry (ObserverRegistry.swift) and the objects
// an idiom keeps with the tree (a reactor's routes, a feedback loop). Code outside the engine,
// and the test store, reach the registries through it.

/// What a store tree shares at its root.
@MainActor
@usableFromInline
package final class StoreRuntime {
  /// The running effects and their cancellation ids.
  let effects: EffectRegistry
  /// The observers told after each batch.
  let observers: ObserverRegistry
  /// The debugging tools told about each action the root reduces (see StepObservers.swift).
  let stepObservers: StepObservers
  /// The scoped cores' caches of the state, emptied at each write of the root's state.
  let stateCaches = ScopedStateCaches.all

  init() {
    effects = EffectRegistry()
    observers = ObserverRegistry()
    stepObservers = StepObservers()
  }

  /// Tells the test store's waiters and the observers about the batch that just ended.
  func publish() {
    effects.waiters.changed()
    observers.publish()
  }

  // MARK: - Attachments

  /// Objects an idiom keeps with the store tree (a reactor's routes, a feedback loop), by type.
  private var attachments: [ObjectIdentifier: AnyObject] = [:]

  @usableFromInline
  package func attach<T: AnyObject>(_ attachment: T) {
    attachments[ObjectIdentifier(T.self)] = attachment
  }

  package func attachment<T: AnyObject>(_ type: T.Type) -> T? {
    attachments[ObjectIdentifier(type)] as? T
  }

  // MARK: - Effects, as the test store sees them

  /// The number of effect tasks that have started and not yet finished.
  package var runningEffectCount: Int { effects.runningEffectCount }
  /// The number of effects still doing work, as a test sees them (see `EffectRegistry`).
  package var activeEffectCount: Int { effects.activeEffectCount }
  /// The active effects that a test store did not skip.
  package var unskippedEffectCount: Int { effects.unskippedEffectCount }
  /// Bumped at every change a test store may wait for.
  package var changeCount: UInt64 { effects.waiters.changeCount }
  /// How many child instances the departure checks have looked up.
  package var childInstanceLookups: Int { effects.childInstances.lookups }

  /// Stops counting the effects running now; returns how many.
  package func skipActiveEffects() -> Int { effects.skipActiveEffects() }
  /// Cancels every running effect and closes every throttle window.
  package func cancelAll() { effects.cancelAll() }
  /// Calls `waiter` once, at the next change (see `EffectChangeWaiters.whenChanged(_:)`).
  package func whenChanged(_ waiter: @escaping @MainActor () -> Void) -> UInt64 {
    effects.waiters.whenChanged(waiter)
  }
  package func removeChangeWaiter(_ id: UInt64) { effects.waiters.remove(id) }
  /// The tasks of the effects running inside a child namespace (and its descendants).
  func tasks(namespacePrefix prefix: Namespace) -> [Task<Void, Never>] {
    effects.tasks(namespacePrefix: prefix)
  }

  // MARK: - Observers, as code outside the engine sees them

  /// How many streams (and optional scopes) are told about each batch (for tests).
  var streamObserverCount: Int { observers.streamObserverCount }

  /// Registers a stream observer (see `ObserverRegistry`).
  func addStreamObserver(
    publish: @escaping @MainActor () -> Bool, finish: @escaping @MainActor () -> Void
  ) {
    observers.addStreamObserver(publish: publish, finish: finish)
  }

  /// Runs `observation` after the current batch is published.
  func schedule(_ observation: ObserveToken) { observers.schedule(observation) }

  /// What the reducers of the store tree reach while the root reduces.
  var reduceContext: ReduceContext { observers.reduceContext }
}
