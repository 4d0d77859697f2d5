// Owns what a store tree shares at its root, whatever its state and action types: its effect
// registry (EffectRegistry.swift), its observer registry (Observation/ObserverRegistry.swift), its step
// observers (StepObservers.swift), the scoped cores' state caches, and the objects an idiom keeps
// with the tree (a reactor's routes, a feedback loop). It does not forward: code outside the
// engine, the test store and the debugging tools call the registry that does the work
// (`store.runtime.effects.activeEffectCount`).

/// What a store tree shares at its root.
@MainActor
@usableFromInline
package final class StoreRuntime {
  /// The running effects, their cancellation ids, and what a test store waits on.
  package let effects: EffectRegistry
  /// The observers told after each batch.
  let observers: ObserverRegistry
  /// The debugging tools told about each action the root reduces (see StepObservers.swift).
  package let stepObservers: StepObservers
  /// The scoped cores' caches of the state, emptied at each write of the root's state.
  let stateCaches = ScopedStateCaches.all

  init() {
    effects = EffectRegistry()
    observers = ObserverRegistry()
    stepObservers = StepObservers()
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
}
