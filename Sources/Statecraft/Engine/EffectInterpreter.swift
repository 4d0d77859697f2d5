// Owns carrying out an effect that a reducer returned: each case of `Effect.Operation` becomes
// what it means (an action sent back to the root, a task registered with EffectRegistry.swift, a
// cancellation, a subscription to a source, a throttle window driven by
// ThrottleStateMachine.swift). It keeps the subscriptions that are running. Actions come back to
// the send loop through RootCore.swift.
import ConcurrencyExtras
import Dependencies

/// Carries out the effects of one root store.
@MainActor
final class EffectInterpreter<State, Action> {
  /// The root the effects send their actions to. NB: weak, as everything an effect holds: only
  /// its owner keeps a store alive.
  weak var root: RootCore<State, Action>?
  private let effects: EffectRegistry
  /// The subscription effects running, with their tokens: releasing the store cancels their
  /// sources at once, and a source that completes ends its effect at once.
  private var subscriptions: [ObjectIdentifier: (subscription: EffectSubscription, token: UInt64)] =
    [:]

  init(effects: EffectRegistry) {
    self.effects = effects
  }

  isolated deinit {
    for running in subscriptions.values { running.subscription.cancel() }
  }

  /// Carries out `effect` in `context`.
  func start(_ effect: Effect<Action>, _ context: EffectContext) {
    switch effect.operation {
    case .none:
      return

    case .send(let action):
      root?.send(action, from: context)

    case .run(let priority, let location, let operation):
      let lifetime = EffectLifetime()
      let send = Send<Action> { [weak root = self.root] action in
        guard let root else {
          location.report(Diagnostics.sendToReleasedStore(action))
          return
        }
        guard !lifetime.isFinished else {
          location.report(Diagnostics.sendAfterEffectFinished(action))
          return
        }
        _ = root.send(action, group: context.sendGroup, cause: context.cause)
      }
      effects.spawn(context, priority: priority) {
        await operation(send)
        lifetime.isFinished = true
      }

    case .subscribe(let subscribe):
      startSubscription(subscribe, context)

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
      self.effects.spawn(context, priority: nil) { [weak self] in
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
      if cancelInFlight { effects.cancel(key) }
      var context = context
      context.keys.append(key)
      start(effect, context)

    case .cancel(let id):
      effects.cancel(CancellationKey(namespace: context.namespace, id: id))

    case .cancelNamespace(let component):
      effects.cancel(namespacePrefix: context.namespace + [component])

    case .namespaced(let component, let effect):
      var context = context
      context.namespace.append(component)
      start(effect, context)

    case .dependencies(let dependencies, let effect):
      var context = context
      context.dependencies = dependencies
      start(effect, context)

    case .throttle(let id, let interval, let sleep, let latest, let effect):
      let key = CancellationKey(namespace: context.namespace, id: id)
      let startEffect: @MainActor () -> Void = { [weak self] in self?.start(effect, context) }
      switch effects.throttle(startEffect, key: key, latest: latest) {
      case .startAndOpenWindow:
        start(effect, context)
        openThrottleWindow(key: key, interval: interval, sleep: sleep, context: context)
      case .heldBack(let window):
        effects.join(context.taskGroups, toWindow: window)
      case .drop:
        return
      }
    }
  }

  // MARK: - Subscriptions

  private func startSubscription(
    _ subscribe: @MainActor @Sendable (EffectSubscriber<Action>) -> @Sendable () -> Void,
    _ context: EffectContext
  ) {
    // NB: subscribed now, while the store is busy: what the source sends during the
    // subscription is queued and reduced before the outer `send` returns.
    let subscription = EffectSubscription()
    let subscriber = EffectSubscriber<Action>(
      send: { [weak root = self.root] action in
        guard let root, subscription.isActive else { return }
        root.send(action, from: context)
      },
      finish: { [weak self] in
        subscription.finish()
        // NB: the source completed: the effect is over now, not when its task next runs.
        self?.subscriptionFinished(ObjectIdentifier(subscription))
      }
    )
    // NB: a source subscribed to here reads `@Dependency` as the effect's tasks do.
    let cancel = DependencyValues.$_current.withValue(context.dependencies) {
      subscribe(subscriber)
    }
    guard !subscription.isFinished else { return }
    let id = ObjectIdentifier(subscription)
    let token = effects.spawn(context, priority: nil) { [weak self] in
      await subscription.wait()
      self?.subscriptions[id] = nil
    }
    subscription.running(cancel: cancel, task: effects.task(token))
    subscriptions[id] = (subscription, token)
    // NB: every way of cancelling the effect (an id, a child leaving the state, its
    // `StoreTask`, the store) cancels the source at once, not when the task next runs.
    effects.whenCancelled(token) { [weak self] in
      subscription.cancel()
      self?.subscriptions[id] = nil
    }
  }

  /// A subscription's source completed: its effect is over for a test at once, before its task
  /// has unwound.
  private func subscriptionFinished(_ id: ObjectIdentifier) {
    guard let running = subscriptions.removeValue(forKey: id) else { return }
    effects.effectEnded(running.token)
  }

  // MARK: - Throttle windows

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
    effects.openThrottleWindow(key: key, context: windowContext) { [weak self] in
      let elapsed = (try? await sleep(interval)) != nil
      guard let self, elapsed, !Task.isCancelled else { return }
      switch self.effects.throttleWindowElapsed(key: key) {
      case .startHeldBack(let start):
        start()
        self.openThrottleWindow(key: key, interval: interval, sleep: sleep, context: context)
      case .close:
        return
      }
    }
  }
}
