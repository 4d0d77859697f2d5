// Owns the running effects of a store tree, whatever its state and action types: their tasks,
// their tokens by cancellation key and by child namespace, the one way to cancel one
// (`cancelEffect(_:)`), the child instances they run in, the throttle windows' state, and the test
// store's waiters on effects.
import Dependencies

/// The running effects of a store tree and their cancellation ids.
@MainActor
@usableFromInline
package final class EffectRegistry {
  // MARK: - Running effects

  private struct RunningEffect {
    let task: Task<Void, Never>
    let namespace: Namespace
    let keys: [CancellationKey]
    var groups: [EffectGroup]
  }

  private var nextToken: UInt64 = 0
  private var running: [UInt64: RunningEffect] = [:]
  private var tokensByKey: [CancellationKey: Set<UInt64>] = [:]
  /// The running effects of each child feature instance, under every prefix of their namespace,
  /// so that cancelling a child's effects costs what the child runs, not what the store runs.
  private var tokensByNamespace: [Namespace: Set<UInt64>] = [:]
  /// The throttle windows, with the effect each holds back (see ThrottleStateMachine.swift).
  private(set) var throttleWindows = ThrottleStateMachine<@MainActor () -> Void>()
  /// The running effects that were cancelled, or whose work ended (a subscription whose source
  /// completed), and have not yet unwound: they are over for a test.
  private var cancelledTokens: Set<UInt64> = []
  /// What effect tasks read through `EffectScope.current` (`Task.cancel(id:)`).
  private lazy var weakSelf = WeakEffectRegistry(self)

  nonisolated init() {}

  isolated deinit {
    for effect in running.values { effect.task.cancel() }
    for waiter in changeWaiters.values { waiter() }
  }

  /// The number of effect tasks that have started and not yet finished.
  package var runningEffectCount: Int { running.count }

  /// The number of effects still doing work, as a test sees them: running effects that were not
  /// cancelled, less the throttle windows that hold nothing back (bookkeeping, not work).
  package var activeEffectCount: Int {
    var count = running.count - cancelledTokens.count
    for token in throttleWindows.idleWindows
    where running[token] != nil && !cancelledTokens.contains(token) {
      count -= 1
    }
    return count
  }

  /// The running effects a test store was told to stop tracking (`skipInFlightEffects()`): they
  /// keep running, and what they send is still received, but they don't count at the end.
  private var skippedTokens: Set<UInt64> = []

  /// Stops counting the effects running now in ``unskippedEffectCount``; returns how many.
  package func skipActiveEffects() -> Int {
    var skipped = 0
    for token in running.keys where isActive(token) && skippedTokens.insert(token).inserted {
      skipped += 1
    }
    return skipped
  }

  /// The active effects (see ``activeEffectCount``) that were not skipped.
  package var unskippedEffectCount: Int {
    running.keys.count { isActive($0) && !skippedTokens.contains($0) }
  }

  private func isActive(_ token: UInt64) -> Bool {
    if cancelledTokens.contains(token) { return false }
    return !throttleWindows.isIdleWindow(token)
  }

  /// Bumped at every change a test store may wait for: a batch published, an effect started,
  /// finished or cancelled.
  // NB: `@exclusivity(unchecked)`: read by a test store at every wait and bumped here, on the
  // main actor; every access is a load or an `&+=` that calls nothing.
  @exclusivity(unchecked) package private(set) var changeCount: UInt64 = 0

  /// A batch was published: a change for the test store's waiters.
  func batchPublished() {
    changeCount &+= 1
    resumeChangeWaiters()
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
    changeCount &+= 1
    running[token] = RunningEffect(
      task: task, namespace: context.namespace, keys: context.keys, groups: context.taskGroups)
    for key in context.keys { tokensByKey[key, default: []].insert(token) }
    var isChildPrefix = true
    for depth in context.namespace.indices {
      let prefix = Array(context.namespace[...depth])
      let isNew = tokensByNamespace[prefix] == nil
      tokensByNamespace[prefix, default: []].insert(token)
      isChildPrefix = isChildPrefix && context.namespace[depth].base is ChildNamespace
      if isNew && isChildPrefix { childInstanceStarted(prefix) }
    }
    for group in context.taskGroups { group.add(token, task, registry: self) }
    return token
  }

  /// The task of the running effect `token`, if it is still running.
  func task(_ token: UInt64) -> Task<Void, Never>? {
    running[token]?.task
  }

  /// What to do, at once, when a running effect is cancelled, before its task next runs: a
  /// subscription effect cancels its source (see EffectInterpreter.swift, `.subscribe`).
  private var cancellationHandlers: [UInt64: @MainActor () -> Void] = [:]

  /// Calls `handler` when the effect `token` is cancelled, by any way of cancelling it.
  func whenCancelled(_ token: UInt64, _ handler: @escaping @MainActor () -> Void) {
    guard running[token] != nil else { return }
    cancellationHandlers[token] = handler
  }

  private func finished(_ token: UInt64) {
    defer { resumeChangeWaiters() }
    changeCount &+= 1
    guard let effect = running.removeValue(forKey: token) else { return }
    if !cancellationHandlers.isEmpty { cancellationHandlers[token] = nil }
    cancelledTokens.remove(token)
    skippedTokens.remove(token)
    for group in effect.groups { group.remove(token) }
    for depth in effect.namespace.indices {
      let prefix = Array(effect.namespace[...depth])
      tokensByNamespace[prefix]?.remove(token)
      if tokensByNamespace[prefix]?.isEmpty == true {
        tokensByNamespace[prefix] = nil
        childInstanceEnded(prefix)
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
    for token in running.keys { cancelEffect(token) }
  }

  /// Cancels one running effect. Every way of cancelling (an id, a namespace, a `StoreTask`,
  /// the whole store) ends here, so that a test counts a cancelled effect as over at once,
  /// before its task has unwound.
  func cancelEffect(_ token: UInt64) {
    guard let effect = running[token] else { return }
    effect.task.cancel()
    if !cancellationHandlers.isEmpty { cancellationHandlers.removeValue(forKey: token)?() }
    guard cancelledTokens.insert(token).inserted else { return }
    changeCount &+= 1
    resumeChangeWaiters()
  }

  /// An effect's work ended before its task unwound (a subscription whose source completed): a
  /// test counts it as over at once, as it does a cancelled one.
  func effectEnded(_ token: UInt64) {
    guard running[token] != nil, cancelledTokens.insert(token).inserted else { return }
    changeCount &+= 1
    resumeChangeWaiters()
  }

  // MARK: - Waiting for effects (test stores)

  // NB: `@exclusivity(unchecked)`: main-actor only, and `resumeChangeWaiters()` copies the
  // waiters and empties the table before it calls them, so a waiter that registers again (as a
  // test store's does) writes to a table no access is held on.
  @exclusivity(unchecked)
  private var changeWaiters: [UInt64: @MainActor () -> Void] = [:]
  private var nextChangeWaiter: UInt64 = 0

  /// Calls `waiter` once, at the next change: an effect finishes or a batch is published. A test
  /// store registers before it checks its condition, so that no change falls in between.
  ///
  /// - Returns: An id for ``removeChangeWaiter(_:)``.
  package func whenChanged(_ waiter: @escaping @MainActor () -> Void) -> UInt64 {
    let id = nextChangeWaiter
    nextChangeWaiter &+= 1
    changeWaiters[id] = waiter
    return id
  }

  package func removeChangeWaiter(_ id: UInt64) {
    changeWaiters[id] = nil
  }

  private func resumeChangeWaiters() {
    guard !changeWaiters.isEmpty else { return }
    let waiters = changeWaiters
    changeWaiters.removeAll()
    for waiter in waiters.values { waiter() }
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
    childInstanceEnded(prefix)
    for token in tokens { cancelEffect(token) }
  }

  // MARK: - Child instances

  /// The child instances with running effects (the namespaces whose components are all child
  /// instances), grouped by the instance they run in and their operator.
  // NB: `@exclusivity(unchecked)`: main-actor only. The departure check iterates a copy of the
  // table (the groups are classes, mutated in place) and cancels the departed instances after
  // the loop, so the `childInstanceEnded` that a cancellation calls never meets a held access.
  @exclusivity(unchecked) private var childGroups: [ChildGroupKey: ChildGroup] = [:]

  /// Whether an effect runs inside a child feature instance. While it is set, the root checks
  /// after each action that the instances are still in its state (see ChildNamespace.swift).
  var hasChildEffects: Bool { !childGroups.isEmpty }

  /// How many child instances the checks have looked up (for tests of what a check costs).
  package private(set) var childInstanceLookups = 0

  private func childInstanceStarted(_ namespace: Namespace) {
    guard let child = namespace.last?.base as? ChildNamespace else { return }
    let key = ChildGroupKey(parent: namespace.dropLast(), operator: child.operatorKey)
    if let group = childGroups[key] {
      group.unchecked.insert(namespace)
    } else {
      let group = ChildGroup(child)
      group.unchecked.insert(namespace)
      childGroups[key] = group
    }
  }

  private func childInstanceEnded(_ namespace: Namespace) {
    guard let child = namespace.last?.base as? ChildNamespace,
      namespace.allSatisfy({ $0.base is ChildNamespace })
    else { return }
    let key = ChildGroupKey(parent: namespace.dropLast(), operator: child.operatorKey)
    guard let group = childGroups[key] else { return }
    group.present.remove(namespace)
    group.unchecked.remove(namespace)
    if group.present.isEmpty && group.unchecked.isEmpty { childGroups[key] = nil }
  }

  /// Cancels the effects of every child instance that has left the root's state, which `state`
  /// reads.
  ///
  /// Each group reads its operator's children once. A group whose snapshot of its children's ids
  /// shows them unchanged since the last check looks up only the instances started since then
  /// (see ChildNamespace.swift): a send to one row of a thousand rows that each run an effect
  /// costs what that row started, not a look-up per row.
  func cancelEffectsOfDepartedChildren(in state: () -> Any) {
    guard !childGroups.isEmpty else { return }
    let root = state()
    var departed: [Namespace] = []
    for (key, group) in childGroups {
      let enclosing: Any
      if key.parent.isEmpty {
        enclosing = root
      } else {
        switch ChildNamespace.presence(of: key.parent[...], in: root) {
        case .present(let state): enclosing = state
        case .absent:
          departed.append(contentsOf: group.present)
          departed.append(contentsOf: group.unchecked)
          continue
        case .unknown: continue
        }
      }
      let snapshot = group.child.snapshot(in: enclosing, previous: group.snapshot)
      // NB: while the ids are those of the last check, only the instances started since are
      // looked up.
      let isUnchanged = snapshot != nil && snapshot === group.snapshot
      if isUnchanged && group.unchecked.isEmpty { continue }
      // NB: the state is not of the operator's type: the instances' path is not known, and they
      // are treated as present (see the comment at the top of ChildNamespace.swift).
      guard let children = group.child.children(in: enclosing) else {
        group.snapshot = nil
        continue
      }
      group.snapshot = snapshot
      if !isUnchanged {
        // NB: a departed instance leaves `present` when its effects are cancelled.
        childInstanceLookups += group.present.count
        for namespace in group.present where group.child(namespace, isAbsentFrom: children) {
          departed.append(namespace)
        }
      }
      childInstanceLookups += group.unchecked.count
      for namespace in group.unchecked {
        if group.child(namespace, isAbsentFrom: children) {
          departed.append(namespace)
        } else {
          group.present.insert(namespace)
        }
      }
      group.unchecked.removeAll(keepingCapacity: true)
    }
    for namespace in departed { cancel(namespacePrefix: namespace) }
  }

  /// The tasks of the effects running inside a child namespace (and its descendants).
  func tasks(namespacePrefix prefix: Namespace) -> [Task<Void, Never>] {
    running.values.filter { $0.namespace.hasPrefix(prefix) }.map(\.task)
  }

  // MARK: - Throttle windows

  /// An effect throttled under `key` arrived: what the throttle windows say to do with it.
  func throttle(
    _ effect: @escaping @MainActor () -> Void, key: CancellationKey, latest: Bool
  ) -> ThrottleStateMachine<@MainActor () -> Void>.Arrival {
    throttleWindows.effectArrived(effect, key: key, latest: latest)
  }

  /// Runs `body` as the task of the throttle window under `key`.
  func openThrottleWindow(
    key: CancellationKey,
    context: EffectContext,
    _ body: @escaping @MainActor @Sendable () async -> Void
  ) {
    let token = spawn(context, priority: nil, body)
    throttleWindows.windowOpened(key, token: token)
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

  /// The interval of the window under `key` elapsed: what to do next.
  func throttleWindowElapsed(
    key: CancellationKey
  ) -> ThrottleStateMachine<@MainActor () -> Void>.Elapsed {
    throttleWindows.windowElapsed(key)
  }
}
