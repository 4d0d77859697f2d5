/// What a store tree shares at its root, whatever its state and action types: the running
/// effects and their cancellation ids, and the observers to tell after each batch.
@MainActor
@usableFromInline
package final class StoreRuntime {
  // MARK: - Running effects

  private struct RunningEffect {
    let task: Task<Void, Never>
    let namespace: Namespace
    let keys: [CancellationKey]
    var groups: [EffectGroup]
  }

  struct ThrottleWindow {
    let token: UInt64
    var pending: (@MainActor () -> Void)?
    var hasPending: Bool { pending != nil }
  }

  private var nextToken: UInt64 = 0
  private var running: [UInt64: RunningEffect] = [:]
  private var tokensByKey: [CancellationKey: Set<UInt64>] = [:]
  /// The running effects of each child feature instance, under every prefix of their namespace,
  /// so that cancelling a child's effects costs what the child runs, not what the store runs.
  private var tokensByNamespace: [Namespace: Set<UInt64>] = [:]
  private(set) var throttleWindows: [CancellationKey: ThrottleWindow] = [:]
  /// The running effects that were cancelled, or whose work ended (a subscription whose source
  /// completed), and have not yet unwound: they are over for a test.
  private var cancelledTokens: Set<UInt64> = []
  /// What effect tasks read through `EffectScope.current` (`Task.cancel(id:)`).
  private lazy var weakSelf = WeakRuntime(self)

  nonisolated init() {}

  isolated deinit {
    for effect in running.values { effect.task.cancel() }
    for waiter in changeWaiters.values { waiter() }
    for observer in streamObservers.values { observer.finish() }
    for case let attachment as any RuntimeAttachment in attachments.values {
      attachment.storeReleased()
    }
  }

  /// The number of effect tasks that have started and not yet finished.
  package var runningEffectCount: Int { running.count }

  /// The number of effects still doing work, as a test sees them: running effects that were not
  /// cancelled, less the throttle windows that hold nothing back (bookkeeping, not work).
  package var activeEffectCount: Int {
    var count = running.count - cancelledTokens.count
    for window in throttleWindows.values
    where !window.hasPending && running[window.token] != nil
      && !cancelledTokens.contains(window.token)
    {
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
    return !throttleWindows.values.contains { $0.token == token && !$0.hasPending }
  }

  /// Bumped at every change a test store may wait for: a batch published, an effect started,
  /// finished or cancelled.
  @exclusivity(unchecked) package private(set) var changeCount: UInt64 = 0

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
    let scope = EffectScope(runtime: weakSelf, namespace: context.namespace)
    let task = Task(priority: priority) { @MainActor [weak self] in
      await EffectScope.$current.withValue(scope) { await body() }
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
    for group in context.taskGroups { group.add(token, task, runtime: self) }
    return token
  }

  /// The task of the running effect `token`, if it is still running.
  func task(_ token: UInt64) -> Task<Void, Never>? {
    running[token]?.task
  }

  /// What to do, at once, when a running effect is cancelled, before its task next runs: a
  /// subscription effect cancels its source (see `RootCore.start`, `.subscribe`).
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
      if throttleWindows[key]?.token == token { throttleWindows[key] = nil }
    }
  }

  /// Cancels every running effect and closes every throttle window.
  package func cancelAll() {
    throttleWindows.removeAll()
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
    throttleWindows[key] = nil
    guard let tokens = tokensByKey.removeValue(forKey: key) else { return }
    for token in tokens { cancelEffect(token) }
  }

  /// Cancels every effect started inside a child feature instance (and its descendants).
  func cancel(namespacePrefix prefix: Namespace) {
    if !throttleWindows.isEmpty {
      for key in throttleWindows.keys where key.namespace.hasPrefix(prefix) {
        throttleWindows[key] = nil
      }
    }
    // NB: once cancelled, the tokens leave the index, so cancelling again costs nothing; they
    // stay in `running` until their tasks end.
    guard let tokens = tokensByNamespace.removeValue(forKey: prefix) else { return }
    childInstanceEnded(prefix)
    for token in tokens { cancelEffect(token) }
  }

  // MARK: - Child instances

  /// The child instances with running effects (the namespaces whose components are all child
  /// instances), grouped by the instance they run in and their operator.
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

  func openThrottleWindow(
    key: CancellationKey,
    context: EffectContext,
    _ body: @escaping @MainActor @Sendable () async -> Void
  ) {
    let token = spawn(context, priority: nil, body)
    throttleWindows[key] = ThrottleWindow(token: token, pending: nil)
  }

  /// Holds `pending` back until the window under `key` closes; the tasks awaiting `groups` then
  /// also wait for the window.
  func holdBack(
    key: CancellationKey, groups: [EffectGroup], _ pending: @escaping @MainActor () -> Void
  ) {
    guard let token = throttleWindows[key]?.token, var effect = running[token] else { return }
    throttleWindows[key]?.pending = pending
    for group in groups where !effect.groups.contains(where: { $0 === group }) {
      group.add(token, effect.task, runtime: self)
      effect.groups.append(group)
    }
    running[token] = effect
  }

  /// Closes the window under `key`, returning what was held back in it.
  func closeThrottleWindow(key: CancellationKey) -> (@MainActor () -> Void)? {
    throttleWindows.removeValue(forKey: key)?.pending
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

  // MARK: - Publishing

  // NB: `publish()` runs after every batch; its tables are not checked for exclusive access at
  // run time (it reads them, then calls out; nothing holds an access across a call).
  /// Stores whose observed key paths are compared after each batch.
  @exclusivity(unchecked) private var observedStores: [ObjectIdentifier: WeakObservedStore] = [:]
  @exclusivity(unchecked) private var streamObservers: [UInt64: StreamObserver] = [:]
  private var nextStreamObserver: UInt64 = 0
  @exclusivity(unchecked) private var scheduledObservations: [ObserveToken] = []

  func register(observedStore: any ObservedStore) {
    observedStores[ObjectIdentifier(observedStore)] = WeakObservedStore(observedStore)
  }

  // MARK: - Row indexes

  /// The row indexes of the store tree and the log of the rows each batch wrote.
  let reduceContext = ReduceContext()
  private var rowIndexes: [RowIndexKey: RowIndex] = [:]

  /// The row index of the collection at `path` of the store whose core is `core`, made by `make`
  /// the first time.
  func rowIndex(core: AnyObject, path: AnyKeyPath, make: () -> RowIndex) -> RowIndex {
    let key = RowIndexKey(core: ObjectIdentifier(core), path: path)
    if let index = rowIndexes[key], index.isAlive { return index }
    let index = make()
    rowIndexes[key] = index
    reduceContext.indexes.append(index)
    return index
  }

  private func publishRowIndexes() {
    var hasDeadIndexes = false
    for index in reduceContext.indexes {
      index.publish()
      if !index.isAlive { hasDeadIndexes = true }
    }
    if hasDeadIndexes {
      reduceContext.indexes.removeAll { !$0.isAlive }
      rowIndexes = rowIndexes.filter { $0.value.isAlive }
    }
  }

  /// How many streams (and optional scopes) are told about each batch (for tests).
  var streamObserverCount: Int { streamObservers.count }

  func addStreamObserver(
    publish: @escaping @MainActor () -> Bool, finish: @escaping @MainActor () -> Void
  ) {
    streamObservers[nextStreamObserver] = StreamObserver(publish: publish, finish: finish)
    nextStreamObserver &+= 1
  }

  func schedule(_ observation: ObserveToken) {
    scheduledObservations.append(observation)
  }

  /// Tells observers about the batch that just ended: Observation first (only key paths whose
  /// values changed), then streams, then `observe` closures whose inputs changed.
  func publish() {
    changeCount &+= 1
    resumeChangeWaiters()
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
    if !reduceContext.indexes.isEmpty { publishRowIndexes() }
    if !streamObservers.isEmpty {
      for (id, observer) in streamObservers where !observer.publish() {
        streamObservers[id] = nil
      }
    }
    if !scheduledObservations.isEmpty {
      let observations = scheduledObservations
      scheduledObservations.removeAll()
      for observation in observations { observation.run() }
    }
    if !reduceContext.pulseLog.isEmpty { reduceContext.pulseLog.removeAll(keepingCapacity: true) }
  }
}

/// A store that compares what its readers observed after each batch.
@MainActor
protocol ObservedStore: AnyObject {
  func publishChanges()
  var isObserving: Bool { get }
}

struct RowIndexKey: Hashable {
  let core: ObjectIdentifier
  let path: AnyKeyPath
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

/// An attachment told when its store tree is released.
@MainActor
protocol RuntimeAttachment: AnyObject {
  func storeReleased()
}
