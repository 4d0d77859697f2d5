// Owns the running effects of a store tree, whatever its state and action types: one record per
// running effect (its task, where it runs, and whether it was cancelled, skipped by a test, or
// has a cancellation handler), the indices that find them by cancellation key and by child
// namespace, and the one way to cancel one (`cancelEffect(_:)`). Removing an effect's record,
// and its tokens from the indices, is the whole cleanup when it ends. Beside it, in files of their own: the test store's waiters on what the
// effects do (EffectChangeWaiters.swift), the child instances the effects run in
// (ChildInstanceGroups.swift), and the glue to the throttle windows (EffectRegistry+Throttle.swift,
// over ThrottleStateMachine.swift).
import Dependencies

/// The running effects of a store tree and their cancellation ids.
@MainActor
@usableFromInline
package final class EffectRegistry {
  // MARK: - Running effects

  /// A running effect: everything the registry knows of it but the indices.
  private struct RunningEffect {
    let task: Task<Void, Never>
    let namespace: Namespace
    let keys: [CancellationKey]
    var groups: [EffectGroup]
    /// Cancelled, or its work ended (a subscription whose source completed), and not yet
    /// unwound: it is over for a test.
    var isOver = false
    /// A test store was told to stop tracking it (`skipInFlightEffects()`): it keeps running,
    /// and what it sends is still received, but it doesn't count at the end.
    var isSkipped = false
    /// What to do, at once, when it is cancelled, before its task next runs: a subscription
    /// effect cancels its source (see EffectInterpreter.swift, `.subscribe`).
    var onCancel: (@MainActor () -> Void)?
  }

  private var nextToken: UInt64 = 0
  private var running: [UInt64: RunningEffect] = [:]
  /// How many running effects are over (`RunningEffect.isOver`).
  private var overCount = 0
  private var tokensByKey: [CancellationKey: Set<UInt64>] = [:]
  /// The running effects of each child feature instance, under every prefix of their namespace,
  /// so that cancelling a child's effects costs what the child runs, not what the store runs.
  private var tokensByNamespace: [Namespace: Set<UInt64>] = [:]
  /// The throttle windows, with the effect each holds back (see ThrottleStateMachine.swift).
  // NB: internal so that the throttle glue (EffectRegistry+Throttle.swift) drives it; only this
  // file and that one touch it.
  var throttleWindows = ThrottleStateMachine<@MainActor () -> Void>()
  /// The test store's waiters on the effects (see EffectChangeWaiters.swift).
  package let waiters = EffectChangeWaiters()
  /// The child instances the effects run in (see ChildInstanceGroups.swift).
  let childInstances = ChildInstanceGroups()
  /// What effect tasks read through `EffectScope.current` (`Task.cancel(id:)`).
  private lazy var weakSelf = WeakEffectRegistry(self)

  nonisolated init() {}

  isolated deinit {
    for effect in running.values { effect.task.cancel() }
    waiters.resume()
  }

  /// The number of effect tasks that have started and not yet finished.
  package var runningEffectCount: Int { running.count }

  /// The number of effects still doing work, as a test sees them: running effects that were not
  /// cancelled, less the throttle windows that hold nothing back (bookkeeping, not work).
  package var activeEffectCount: Int {
    var count = running.count - overCount
    for token in throttleWindows.idleWindows where running[token]?.isOver == false {
      count -= 1
    }
    return count
  }

  /// Stops counting the effects running now in ``unskippedEffectCount``; returns how many.
  package func skipActiveEffects() -> Int {
    let skipped = running.compactMap { token, effect in
      isActive(token, effect) && !effect.isSkipped ? token : nil
    }
    for token in skipped { running[token]?.isSkipped = true }
    return skipped.count
  }

  /// The active effects (see ``activeEffectCount``) that were not skipped.
  package var unskippedEffectCount: Int {
    running.count { isActive($0.key, $0.value) && !$0.value.isSkipped }
  }

  private func isActive(_ token: UInt64, _ effect: RunningEffect) -> Bool {
    !effect.isOver && !throttleWindows.isIdleWindow(token)
  }

  /// Starts `body` as a task owned by this runtime, registered under the context's cancellation
  /// keys and joined to its groups.
  @discardableResult
  func spawn(
    _ context: EffectContext,
    priority: TaskPriority?,
    _ body: @escaping @MainActor @Sendable () async -> Void
  ) -> UInt64 {
    let token = nextToken
    nextToken &+= 1
    let scope = EffectScope(registry: weakSelf, namespace: context.namespace)
    let dependencies = context.dependencies
    let task = Task(priority: priority) { @MainActor [weak self] in
      // NB: the effect's own values, not whatever the task that spawned it had: a `.run` that
      // starts later (a concatenation's step, a throttled effect) runs with the values of the
      // store, or of the `.dependency(...)` reducer, that returned it.
      await DependencyValues.$_current.withValue(dependencies) {
        await EffectScope.$current.withValue(scope) { await body() }
      }
      self?.finished(token)
    }
    waiters.countChange()
    running[token] = RunningEffect(
      task: task, namespace: context.namespace, keys: context.keys, groups: context.taskGroups)
    for key in context.keys { tokensByKey[key, default: []].insert(token) }
    var isChildPrefix = true
    for depth in context.namespace.indices {
      let prefix = Array(context.namespace[...depth])
      let isNew = tokensByNamespace[prefix] == nil
      tokensByNamespace[prefix, default: []].insert(token)
      isChildPrefix = isChildPrefix && context.namespace[depth].base is ChildNamespaceComponent
      if isNew && isChildPrefix { childInstances.started(prefix) }
    }
    for group in context.taskGroups { group.add(token, task, registry: self) }
    return token
  }

  /// The task of the running effect `token`, if it is still running.
  func task(_ token: UInt64) -> Task<Void, Never>? {
    running[token]?.task
  }

  /// Calls `handler` when the effect `token` is cancelled, by any way of cancelling it.
  func whenCancelled(_ token: UInt64, _ handler: @escaping @MainActor () -> Void) {
    running[token]?.onCancel = handler
  }

  private func finished(_ token: UInt64) {
    waiters.countChange()
    defer { waiters.resume() }
    guard let effect = running.removeValue(forKey: token) else { return }
    if effect.isOver { overCount -= 1 }
    for group in effect.groups { group.remove(token) }
    for depth in effect.namespace.indices {
      let prefix = Array(effect.namespace[...depth])
      tokensByNamespace[prefix]?.remove(token)
      if tokensByNamespace[prefix]?.isEmpty == true {
        tokensByNamespace[prefix] = nil
        childInstances.ended(prefix)
      }
    }
    for key in effect.keys {
      tokensByKey[key]?.remove(token)
      if tokensByKey[key]?.isEmpty == true { tokensByKey[key] = nil }
      throttleWindows.taskEnded(token, key: key)
    }
  }

  /// Cancels every running effect and closes every throttle window.
  package func cancelAll() {
    throttleWindows.cancelAll()
    for token in Array(running.keys) { cancelEffect(token) }
  }

  /// Cancels one running effect. Every way of cancelling (an id, a namespace, a `StoreTask`,
  /// the whole store) ends here, so that a test counts a cancelled effect as over at once,
  /// before its task has unwound.
  func cancelEffect(_ token: UInt64) {
    guard let effect = running[token] else { return }
    effect.task.cancel()
    if let handler = effect.onCancel {
      running[token]?.onCancel = nil
      // NB: the handler may cancel or end effects itself: the record is read again after it.
      handler()
    }
    effectEnded(token)
  }

  /// An effect's work ended before its task unwound (a subscription whose source completed): a
  /// test counts it as over at once, as it does a cancelled one.
  func effectEnded(_ token: UInt64) {
    guard running[token]?.isOver == false else { return }
    running[token]?.isOver = true
    overCount += 1
    waiters.changed()
  }

  /// Cancels every effect running under `key`, and any throttle window it has open.
  func cancel(_ key: CancellationKey) {
    throttleWindows.cancel(key)
    guard let tokens = tokensByKey.removeValue(forKey: key) else { return }
    for token in tokens { cancelEffect(token) }
  }

  /// Cancels every effect started inside a child feature instance (and its descendants).
  func cancel(namespacePrefix prefix: Namespace) {
    throttleWindows.cancel(namespacePrefix: prefix)
    // NB: once cancelled, the tokens leave the index, so cancelling again costs nothing; they
    // stay in `running` until their tasks end.
    guard let tokens = tokensByNamespace.removeValue(forKey: prefix) else { return }
    childInstances.ended(prefix)
    for token in tokens { cancelEffect(token) }
  }

  /// Cancels the effects of every child instance that has left the root's state, which `state`
  /// reads (see ChildInstanceGroups.swift).
  func cancelEffectsOfDepartedChildren(in state: () -> Any) {
    for namespace in childInstances.departed(in: state) { cancel(namespacePrefix: namespace) }
  }

  /// The tasks of the effects running inside a child namespace (and its descendants).
  func tasks(namespacePrefix prefix: Namespace) -> [Task<Void, Never>] {
    running.values.filter { $0.namespace.hasPrefix(prefix) }.map(\.task)
  }

  /// The tasks awaiting `groups` also wait for the throttle window `token`, which now holds back
  /// an effect of theirs.
  func join(_ groups: [EffectGroup], toWindow token: UInt64) {
    guard var effect = running[token] else { return }
    for group in groups where !effect.groups.contains(where: { $0 === group }) {
      group.add(token, effect.task, registry: self)
      effect.groups.append(group)
    }
    running[token] = effect
  }

}
