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

  nonisolated init() {}

  isolated deinit {
    for effect in running.values { effect.task.cancel() }
    for waiter in changeWaiters.values { waiter.resume() }
    for observer in streamObservers.values { observer.finish() }
    for case let attachment as any RuntimeAttachment in attachments.values {
      attachment.storeReleased()
    }
  }

  /// The number of effect tasks that have started and not yet finished.
  package var runningEffectCount: Int { running.count }

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
    let task = Task(priority: priority) { @MainActor [weak self] in
      await body()
      self?.finished(token)
    }
    running[token] = RunningEffect(
      task: task, namespace: context.namespace, keys: context.keys, groups: context.taskGroups)
    for key in context.keys { tokensByKey[key, default: []].insert(token) }
    for depth in context.namespace.indices {
      tokensByNamespace[Array(context.namespace[...depth]), default: []].insert(token)
    }
    for group in context.taskGroups { group.add(token, task) }
    return token
  }

  /// The task of the running effect `token`, if it is still running.
  func task(_ token: UInt64) -> Task<Void, Never>? {
    running[token]?.task
  }

  private func finished(_ token: UInt64) {
    defer { resumeChangeWaiters() }
    guard let effect = running.removeValue(forKey: token) else { return }
    for group in effect.groups { group.remove(token) }
    for depth in effect.namespace.indices {
      let prefix = Array(effect.namespace[...depth])
      tokensByNamespace[prefix]?.remove(token)
      if tokensByNamespace[prefix]?.isEmpty == true { tokensByNamespace[prefix] = nil }
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
    for effect in running.values { effect.task.cancel() }
  }

  // MARK: - Waiting for effects (test stores)

  @exclusivity(unchecked)
  private var changeWaiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
  private var nextChangeWaiter: UInt64 = 0

  /// Suspends until an effect finishes or a batch is published, or the calling task is
  /// cancelled.
  package func nextChange() async {
    let id = nextChangeWaiter
    nextChangeWaiter &+= 1
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        if Task.isCancelled {
          continuation.resume()
        } else {
          changeWaiters[id] = continuation
        }
      }
    } onCancel: {
      Task { @MainActor in self.changeWaiters.removeValue(forKey: id)?.resume() }
    }
  }

  private func resumeChangeWaiters() {
    guard !changeWaiters.isEmpty else { return }
    let waiters = changeWaiters
    changeWaiters.removeAll()
    for waiter in waiters.values { waiter.resume() }
  }

  /// Cancels every effect running under `key`, and any throttle window it has open.
  func cancel(_ key: CancellationKey) {
    throttleWindows[key] = nil
    guard let tokens = tokensByKey.removeValue(forKey: key) else { return }
    for token in tokens { running[token]?.task.cancel() }
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
    for token in tokens { running[token]?.task.cancel() }
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
      group.add(token, effect.task)
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
