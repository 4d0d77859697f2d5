import ConcurrencyExtras

/// The root of a store tree: owns the state and the reducer, runs the send loop and interprets
/// effects.
@MainActor
@usableFromInline
package final class RootCore<State, Action>: Core<State, Action> {
  // NB: the send loop runs as generic code that is not specialized for `State` and `Action`
  // (a class's methods are compiled once, in this module). What runs for every action is kept
  // free of values whose type must be looked up at run time (`Effect<Action>`, the queue's
  // element), and of dynamic exclusivity checks: the reducer and the check for `.none` run in
  // `reduction`, which `init(initialState:reducer:)` builds, inlined, where the types are known.
  @exclusivity(unchecked) private var currentState: State
  private let reduction: (RootCore, inout State, Action) -> Void
  private let storeRuntime = StoreRuntime()
  /// True while a batch is being reduced or published: sends made then are queued.
  @exclusivity(unchecked) private var isBusy = false
  /// Actions sent while busy, with the child namespace of the `.send` effect that sent them
  /// (empty otherwise): an action of a child instance that left the state is dropped.
  @exclusivity(unchecked) private var queue: [QueuedAction] = []
  @exclusivity(unchecked) private var hasQueuedActions = false
  /// How many queued actions were sent by a child instance's `.send`: while any is queued, each
  /// action is followed by a check that their instances are still in the state.
  @exclusivity(unchecked) private var queuedChildActions = 0
  /// The effect of the action just reduced, when it is not `.none` (set by `reduction`).
  @usableFromInline @exclusivity(unchecked) var pendingEffect: Effect<Action>?
  @usableFromInline @exclusivity(unchecked) var hasPendingEffect = false
  /// A state given to `replaceState` while busy, applied when the batch's actions are reduced.
  /// NB: an array rather than an optional, so that a store holds 8 bytes for it, not a State;
  /// the send loop reads only the flag, which costs nothing in unspecialized code.
  private var pendingState: [State] = []
  @exclusivity(unchecked) private var hasPendingState = false
  /// The subscription effects running, with their runtime tokens: releasing the store cancels
  /// their sources at once, and a source that completes ends its effect at once.
  private var subscriptions: [ObjectIdentifier: (subscription: EffectSubscription, token: UInt64)] =
    [:]

  @usableFromInline
  init(initialState: State, reduction: @escaping (RootCore, inout State, Action) -> Void) {
    self.currentState = initialState
    self.reduction = reduction
  }

  @inlinable
  package convenience init(
    initialState: State, reducer: @escaping (inout State, Action) -> Effect<Action>
  ) {
    self.init(initialState: initialState) { root, state, action in
      let effect = reducer(&state, action)
      if !effect.isNone {
        root.pendingEffect = effect
        root.hasPendingEffect = true
      }
    }
  }

  deinit {
    for running in subscriptions.values { running.subscription.cancel() }
  }

  override package var state: State { currentState }
  @usableFromInline
  override package var runtime: StoreRuntime { storeRuntime }

  // MARK: - The send loop

  @usableFromInline
  override package func send(_ action: Action, group: EffectGroup?) -> StoreTask {
    if isBusy { return enqueue(action, group: group) }
    isBusy = true
    var group = group
    reduce(action, group: &group)
    publishUntilSettled()
    isBusy = false
    return StoreTask(group)
  }

  /// An action sent while the store is busy, with the group of the send that queued it and the
  /// child namespace of the `.send` effect that sent it (empty otherwise).
  private struct QueuedAction {
    let action: Action
    let group: EffectGroup
    var namespace: Namespace
  }

  // NB: kept out of `send(_:group:)`, for the reason given at `startPendingEffect`: on entry,
  // unspecialized code looks up the metadata of the queue's element (and of `EffectGroup`), which
  // every send paid when this branch was inlined.
  @inline(never)
  private func enqueue(_ action: Action, group: EffectGroup?) -> StoreTask {
    // NB: re-entrant sends (from a `.send` effect, an observer or a subscriber) are queued and
    // reduced in FIFO order before the outermost send returns.
    let group = group ?? EffectGroup()
    queue.append(QueuedAction(action: action, group: group, namespace: []))
    hasQueuedActions = true
    return StoreTask(group)
  }

  override package func replaceState(_ state: State) -> Bool {
    if isBusy {
      // NB: replaced while the store is reducing (a sink, a reducer) or publishing (an
      // observer): assigning now could overlap the reducer's exclusive access to the state, so
      // the send loop applies it after the queued actions, and publishes again.
      pendingState = [state]
      hasPendingState = true
      return true
    }
    currentState = state
    isBusy = true
    publishUntilSettled()
    isBusy = false
    return true
  }

  /// Reduces what was queued and publishes, until no send or state replacement is pending.
  private func publishUntilSettled() {
    repeat {
      if hasQueuedActions { drainQueue() }
      if hasPendingState {
        hasPendingState = false
        currentState = pendingState.removeLast()
      }
      storeRuntime.publish()
    } while hasQueuedActions || hasPendingState
  }

  private func drainQueue() {
    var index = 0
    while index < queue.count {
      var group: EffectGroup? = queue[index].group
      let action = queue[index].action
      let namespace = queue[index].namespace
      index += 1
      if !namespace.isEmpty {
        // NB: a child's `.send` queued behind the action that removed or replaced the child
        // never reaches its successor: the check after that action marked it departed.
        queuedChildActions -= 1
        if namespace.first?.base is DepartedChild { continue }
      }
      reduce(action, group: &group)
    }
    queue.removeAll(keepingCapacity: true)
    hasQueuedActions = false
  }

  private func reduce(_ action: Action, group: inout EffectGroup?) {
    if !storeRuntime.reduceContext.isNeededWhileReducing {
      reduction(self, &currentState, action)
    } else {
      // NB: `forEach` logs the rows it writes to the current context (see RowIndex.swift), and
      // pulses their assignments (see Pulse.swift).
      let previous = ReduceContext.enter(storeRuntime.reduceContext)
      reduction(self, &currentState, action)
      ReduceContext.exit(to: previous)
    }
    if hasPendingEffect { startPendingEffect(group: &group) }
    if storeRuntime.hasChildEffects || queuedChildActions > 0 {
      cancelEffectsOfDepartedChildren()
    }
  }

  /// Cancels the effects, and drops the queued actions, of the child instances that the action
  /// just reduced removed or replaced, whichever reducer did it (see ChildNamespace.swift).
  @inline(never)
  private func cancelEffectsOfDepartedChildren() {
    storeRuntime.cancelEffectsOfDepartedChildren { self.currentState }
    guard queuedChildActions > 0 else { return }
    // NB: marked now rather than checked when dequeued: an instance without an identity that
    // leaves and comes back before its action is dequeued is another instance.
    for index in queue.indices where !queue[index].namespace.isEmpty {
      let namespace = queue[index].namespace
      if !(namespace.first?.base is DepartedChild)
        && !ChildNamespace.isPresent(namespace, in: currentState)
      {
        queue[index].namespace = [AnyHashableSendable(DepartedChild())]
      }
    }
  }

  // NB: kept out of `reduce(_:group:)`: unspecialized code computes the metadata of its generic
  // locals (here `Effect<Action>`) on entry, whether or not the path that uses them runs.
  @inline(never)
  private func startPendingEffect(group: inout EffectGroup?) {
    hasPendingEffect = false
    guard let effect = pendingEffect.take() else { return }
    let sendGroup: EffectGroup
    if let group {
      sendGroup = group
    } else {
      sendGroup = EffectGroup()
      group = sendGroup
    }
    start(
      effect,
      EffectContext(namespace: [], keys: [], sendGroup: sendGroup, taskGroups: [sendGroup]))
  }

  // MARK: - Effects

  private func start(_ effect: Effect<Action>, _ context: EffectContext) {
    switch effect.operation {
    case .none:
      return

    case .send(let action):
      send(action, from: context)

    case .run(let priority, let location, let operation):
      let lifetime = EffectLifetime()
      let send = Send<Action> { [weak self] action in
        guard let self else {
          location.report(Diagnostics.sendToReleasedStore(action))
          return
        }
        guard !lifetime.isFinished else {
          location.report(Diagnostics.sendAfterEffectFinished(action))
          return
        }
        _ = self.send(action, group: context.sendGroup)
      }
      storeRuntime.spawn(context, priority: priority) {
        await operation(send)
        lifetime.isFinished = true
      }

    case .subscribe(let subscribe):
      // NB: subscribed now, while the store is busy: what the source sends during the
      // subscription is queued and reduced before the outer `send` returns.
      let subscription = EffectSubscription()
      let subscriber = EffectSubscriber<Action>(
        send: { [weak self] action in
          guard let self, subscription.isActive else { return }
          self.send(action, from: context)
        },
        finish: { [weak self] in
          subscription.finish()
          // NB: the source completed: the effect is over now, not when its task next runs.
          self?.subscriptionFinished(ObjectIdentifier(subscription))
        }
      )
      let cancel = subscribe(subscriber)
      guard !subscription.isFinished else { return }
      let id = ObjectIdentifier(subscription)
      let token = storeRuntime.spawn(context, priority: nil) { [weak self] in
        await subscription.wait()
        self?.subscriptions[id] = nil
      }
      subscription.running(cancel: cancel, task: storeRuntime.task(token))
      subscriptions[id] = (subscription, token)
      // NB: every way of cancelling the effect (an id, a child leaving the state, its
      // `StoreTask`, the store) cancels the source at once, not when the task next runs.
      storeRuntime.whenCancelled(token) { [weak self] in
        subscription.cancel()
        self?.subscriptions[id] = nil
      }

    case .merge(let effects):
      for effect in effects { start(effect, context) }

    case .concatenate(var effects):
      // NB: leading effects that finish synchronously (`.send`, `.cancel`) run at once, as a
      // concatenated publisher emits its leading values on subscription.
      while let first = effects.first, first.isSynchronous {
        start(first, context)
        effects.removeFirst()
      }
      guard !effects.isEmpty else { return }
      storeRuntime.spawn(context, priority: nil) { [weak self] in
        for effect in effects {
          guard !Task.isCancelled, let self else { return }
          let step = EffectGroup()
          var stepContext = context
          stepContext.taskGroups.append(step)
          self.start(effect, stepContext)
          await step.finish()
        }
      }

    case .cancellable(let id, let cancelInFlight, let effect):
      let key = CancellationKey(namespace: context.namespace, id: id)
      if cancelInFlight { storeRuntime.cancel(key) }
      var context = context
      context.keys.append(key)
      start(effect, context)

    case .cancel(let id):
      storeRuntime.cancel(CancellationKey(namespace: context.namespace, id: id))

    case .cancelNamespace(let component):
      storeRuntime.cancel(namespacePrefix: context.namespace + [component])

    case .namespaced(let component, let effect):
      var context = context
      context.namespace.append(component)
      start(effect, context)

    case .throttle(let id, let interval, let sleep, let latest, let effect):
      let key = CancellationKey(namespace: context.namespace, id: id)
      if let window = storeRuntime.throttleWindows[key] {
        guard latest || !window.hasPending else { return }
        storeRuntime.holdBack(key: key, groups: context.taskGroups) { [weak self] in
          self?.start(effect, context)
        }
      } else {
        start(effect, context)
        openThrottleWindow(key: key, interval: interval, sleep: sleep, context: context)
      }
    }
  }

  /// Sends an action of a synchronous effect (a `.send`, a subscription's value). While the
  /// store is busy, a child instance's action is queued with the instance's namespace, so that it
  /// is dropped if the instance leaves the state before the action is dequeued: it never reaches
  /// the successor of a replaced child, nor is it reported as an action for a removed row.
  private func send(_ action: Action, from context: EffectContext) {
    if isBusy && !context.namespace.isEmpty {
      queue.append(
        QueuedAction(action: action, group: context.sendGroup, namespace: context.namespace))
      queuedChildActions += 1
      hasQueuedActions = true
    } else {
      _ = send(action, group: context.sendGroup)
    }
  }

  /// A subscription's source completed: its effect is over for a test at once, before its task
  /// has unwound.
  private func subscriptionFinished(_ id: ObjectIdentifier) {
    guard let running = subscriptions.removeValue(forKey: id) else { return }
    storeRuntime.effectEnded(running.token)
  }

  private func openThrottleWindow(
    key: CancellationKey,
    interval: Duration,
    sleep: @escaping @Sendable (Duration) async throws -> Void,
    context: EffectContext
  ) {
    var windowContext = context
    windowContext.keys.append(key)
    // NB: the window is bookkeeping, not work of the action that opened it: it joins a
    // `StoreTask` only when an effect of that task's action is held back in it.
    windowContext.taskGroups = []
    storeRuntime.openThrottleWindow(key: key, context: windowContext) { [weak self] in
      let elapsed = (try? await sleep(interval)) != nil
      guard let self, elapsed, !Task.isCancelled,
        let pending = self.storeRuntime.closeThrottleWindow(key: key)
      else { return }
      pending()
      self.openThrottleWindow(key: key, interval: interval, sleep: sleep, context: context)
    }
  }
}
