// Owns the send loop of a store tree: the state, the reducer, the queue of actions sent while a
// batch runs, and the order of a batch (reduce, start the effect, check departed children, drain
// the queue, publish). What the loop has pending is kept by SendLoopStateMachine.swift; effects
// are carried out by EffectInterpreter.swift; observers are told by Observation/ObserverRegistry.swift.
// The dependency values in force when the root is made are the ones it reduces with and starts
// effects with.
import ConcurrencyExtras
import Dependencies
import IssueReporting

/// The root of a store tree: owns the state and the reducer, and runs the send loop.
@MainActor
@usableFromInline
package final class RootCore<State, Action>: Core, AnyRootCore {
  // NB: the send loop runs as generic code that is not specialized for `State` and `Action`
  // (a class's methods are compiled once, in this module). What runs for every action is kept
  // free of values whose type must be looked up at run time (`Effect<Action>`, the queue's
  // element), and of dynamic exclusivity checks: the reducer and the check for `.none` run in
  // `reduction`, which `init(initialState:reducer:)` builds, inlined, where the types are known.
  // NB: internal, not private: a root store's reads reach it directly (`Store.rootCore`).
  @usableFromInline @exclusivity(unchecked) var currentState: State
  /// Runs the reducer; true when it returned an effect other than `.none` (then in
  /// `pendingEffect`, which the loop takes and starts right after).
  private let reduction: (RootCore, inout State, Action) -> Bool
  /// The reducer alone, its effect dropped: debugging tools recompute a past state with it
  /// (see Inspection.swift). Nil for a root made from a bare `reduction`.
  let reduceWithoutEffects: ((inout State, Action) -> Void)?
  private let storeRuntime: StoreRuntime
  /// The dependency values in force when the store was created: every action is reduced, and
  /// every effect starts, with them (as TCA's `withDependencies(from:)`), whenever and wherever
  /// it is sent. A test store may change them between two actions; effects already running keep
  /// the values they started with.
  package var dependencies: DependencyValues {
    didSet { dependenciesInForce = DependencyValuesInForce(dependencies) }
  }
  /// Whether `dependencies` are the values in force, asked without a copy at every action.
  @exclusivity(unchecked) private var dependenciesInForce: DependencyValuesInForce
  /// The runtime's registries, held here too so that the loop reaches them in one step.
  private let effects: EffectRegistry
  private let childInstances: ChildInstanceGroups
  private let stepObservers: StepObservers
  private let stateCaches: ScopedStateCaches
  private let reduceContext: ReduceContext
  // NB: held here rather than reached through `storeRuntime` at each batch: a registry reached
  // through two objects was retained and released around its call (12 % of a plain send).
  private let changeWaiters: EffectChangeWaiters
  private let observers: ObserverRegistry
  private let interpreter: EffectInterpreter<State, Action>
  // NB: `@exclusivity(unchecked)` on `currentState` (above), `loop`, `queue` and
  // `pendingEffect`: main-actor state of the loop, touched at every action. The one access held
  // across a call is the reducer's `inout` on `currentState`; what can run inside it (a
  // re-entrant send, `reduction` setting `pendingEffect`) touches `queue`, `loop` and
  // `pendingEffect`, never the state. The drain reads one queued action at a time, by index, and
  // holds no access to `queue` while it reduces it.
  /// What the loop has pending (see SendLoopStateMachine.swift).
  @exclusivity(unchecked) private var loop = SendLoopStateMachine()
  /// Actions sent while busy, with the child namespace of the `.send` effect that sent them
  /// (empty otherwise): an action of a child instance that left the state is dropped.
  @exclusivity(unchecked) private var queue: [QueuedAction] = []
  /// The effect of the action just reduced, when it is not `.none` (set by `reduction`, which
  /// says so; taken when the effect starts, right after).
  @usableFromInline @exclusivity(unchecked) var pendingEffect: Effect<Action>?
  /// A state given to `replaceState` while busy, applied when the batch's actions are reduced.
  /// NB: an array rather than an optional, so that a store holds 8 bytes for it, not a State;
  /// the send loop reads only the loop's flag, which costs nothing in unspecialized code.
  private var pendingState: [State] = []

  @usableFromInline
  init(
    initialState: State,
    reduceWithoutEffects: ((inout State, Action) -> Void)? = nil,
    reduction: @escaping (RootCore, inout State, Action) -> Bool
  ) {
    let runtime = StoreRuntime()
    self.currentState = initialState
    self.reduction = reduction
    self.reduceWithoutEffects = reduceWithoutEffects
    self.storeRuntime = runtime
    var dependencies = DependencyValues._current
    // NB: in a test, the stack id source is the test's own counter, which swift-dependencies
    // finds through its per-test cache; that lookup asks the test framework for the current
    // test (a `dlopen` on Linux, very slow under the thread sanitizer). Stored in the store's
    // values, it is found without the cache at every push and every new stack the store makes.
    if isTesting { dependencies.stackElementID = dependencies.stackElementID }
    self.dependencies = dependencies
    self.dependenciesInForce = DependencyValuesInForce(dependencies)
    self.effects = runtime.effects
    self.childInstances = runtime.effects.childInstances
    self.stepObservers = runtime.stepObservers
    self.stateCaches = runtime.stateCaches
    self.reduceContext = runtime.observers.reduceContext
    self.changeWaiters = runtime.effects.waiters
    self.observers = runtime.observers
    self.interpreter = EffectInterpreter(effects: runtime.effects)
    interpreter.root = self
  }

  /// A root that runs `reducer`: the reduction calls its `reduce(into:action:)` itself,
  /// specialized where the store is made, with no closure between.
  @inlinable
  package convenience init<R: Reducer<State, Action>>(initialState: State, reducer: R) {
    self.init(
      initialState: initialState,
      reduceWithoutEffects: { _ = reducer.reduce(into: &$0, action: $1) }
    ) { root, state, action in
      let effect = reducer.reduce(into: &state, action: action)
      if effect.isNone { return false }
      root.pendingEffect = effect
      return true
    }
  }

  /// A root that runs the reducer function `reducer` (an idiom's adapter, a test's harness).
  @inlinable
  package convenience init(
    initialState: State, reducer: @escaping (inout State, Action) -> Effect<Action>
  ) {
    self.init(initialState: initialState, reducer: Reduce(reducer))
  }

  @usableFromInline
  package var state: State { currentState }
  @usableFromInline
  package var runtime: StoreRuntime { storeRuntime }
  @usableFromInline
  package var root: any AnyRootCore { self }
  @usableFromInline package var stateCache: ScopedStateCache<State>? { nil }

  @usableFromInline
  package func scoped<ChildState, ChildAction>(
    toState: @escaping (State) -> ChildState,
    fromAction: @escaping (ChildAction) -> Action
  ) -> any Core<ChildState, ChildAction> {
    ScopedCore(parent: self, toState: toState, fromAction: fromAction)
  }

  @usableFromInline
  package func register(observedStore: any ObservedStore) {
    storeRuntime.observers.register(observedStore: observedStore)
  }

  // MARK: - The send loop

  /// Sends `action`; `cause` is the root action whose effect sent it, when a step observer
  /// wants it (see EffectContext.cause).
  @usableFromInline
  package func send(_ action: Action, group: EffectGroup?, cause: Any?) -> StoreTask {
    if loop.send() == .enqueue { return enqueue(action, group: group, cause: cause) }
    // NB: an action sent with a group comes from an effect; one without, from outside.
    let origin: ActionOrigin = group == nil ? .send : .effect
    var group = group
    reduce(action, origin: origin, cause: cause, group: &group)
    settle(loop.reduced())
    return StoreTask(group)
  }

  /// An action sent while the store is busy, with the group of the send that queued it and the
  /// child namespace of the `.send` effect that sent it (empty otherwise).
  private struct QueuedAction {
    let action: Action
    let group: EffectGroup
    let origin: ActionOrigin
    let namespace: Namespace
    /// Its child instance left the state after it was queued: it is never reduced (it would
    /// reach the instance's successor, or be reported for a removed row).
    var isDropped = false
    /// The root action whose effect sent it, while a step observer wants it.
    let cause: Any?
  }

  // NB: kept out of `send(_:group:)`: on entry, unspecialized code looks up the metadata of its
  // generic locals (the queue's element, `EffectGroup`) whether or not the path that uses them
  // runs, which every send paid (swift_getTupleTypeMetadata2, about 14% of a plain send) when
  // this branch was inlined and the element was a tuple.
  @inline(never)
  private func enqueue(_ action: Action, group: EffectGroup?, cause: Any?) -> StoreTask {
    // NB: re-entrant sends (from a `.send` effect, an observer or a subscriber) are queued and
    // reduced in FIFO order before the outermost send returns.
    let origin: ActionOrigin = group == nil ? .send : .effect
    let group = group ?? EffectGroup()
    queue.append(
      QueuedAction(action: action, group: group, origin: origin, namespace: [], cause: cause))
    return StoreTask(group)
  }

  @usableFromInline
  package func replaceState(_ state: State) -> Bool {
    stepObservers.stateReplaced()
    switch loop.replaceState() {
    case .holdUntilSettled:
      // NB: replaced while the store is reducing (a sink, a reducer) or publishing (an
      // observer): assigning now could overlap the reducer's exclusive access to the state, so
      // the send loop applies it after the queued actions, and publishes again.
      pendingState = [state]
    case .applyAndPublish:
      emptyStateCaches()
      currentState = state
      checkForDepartedChildren()
      settle(.publish)
    }
    return true
  }

  /// Sends an action of a synchronous effect (a `.send`, a subscription's value). While the
  /// store is busy, a child instance's action is queued with the instance's namespace, so that it
  /// is dropped if the instance leaves the state before the action is dequeued: it never reaches
  /// the successor of a replaced child, nor is it reported as an action for a removed row.
  func send(_ action: Action, from context: EffectContext) {
    if loop.isBusy && !context.namespace.isEmpty {
      queue.append(
        QueuedAction(
          action: action, group: context.sendGroup, origin: .effect, namespace: context.namespace,
          cause: context.cause))
      loop.childActionQueued()
    } else {
      _ = send(action, group: context.sendGroup, cause: context.cause)
    }
  }

  /// Carries out the steps of a batch until nothing is pending: the queued actions, a state
  /// replaced while busy, publishing.
  private func settle(_ first: SendLoopStateMachine.Step) {
    var step = first
    while true {
      switch step {
      case .drainQueue:
        drainQueue()
        step = loop.queueDrained()
      case .applyPendingState:
        emptyStateCaches()
        currentState = pendingState.removeLast()
        checkForDepartedChildren()
        step = loop.pendingStateApplied()
      case .publish:
        // The test store's waiters, then the observers, learn of the batch that just ended.
        changeWaiters.changed()
        observers.publish()
        // NB: what scoped stores read while observers were told may predate the last states
        // that the publication gave to departed children's stores.
        emptyStateCaches()
        step = loop.published()
      case .settled:
        return
      }
    }
  }

  private func drainQueue() {
    var index = 0
    while index < queue.count {
      var group: EffectGroup? = queue[index].group
      let action = queue[index].action
      let isChildAction = !queue[index].namespace.isEmpty
      let isDropped = queue[index].isDropped
      let origin = queue[index].origin
      let cause = queue[index].cause
      index += 1
      if isChildAction {
        // NB: a child's `.send` queued behind the action that removed or replaced the child
        // never reaches its successor: the check after that action dropped it.
        loop.childActionDequeued()
        if isDropped { continue }
      }
      reduce(action, origin: origin, cause: cause, group: &group)
    }
    queue.removeAll(keepingCapacity: true)
  }

  private func reduce(
    _ action: Action, origin: ActionOrigin, cause: Any?, group: inout EffectGroup?
  ) {
    // NB: the store's values are in force around the reducer and the start of its effect:
    // `@Dependency` reads the store's values whoever sends (a view, an effect of another store,
    // a test), and the effect's tasks inherit nothing else (see `EffectContext.dependencies`).
    // They are bound only where other values are in force (see DependencyValues+Binding.swift).
    if dependenciesInForce.areInForce() {
      reduceWithDependencies(action, origin: origin, cause: cause, group: &group)
    } else {
      bindDependenciesAndReduce(action, origin: origin, cause: cause, group: &group)
    }
  }

  // NB: kept out of `reduce(_:origin:cause:group:)`, so that a send with the store's values in
  // force builds no closure.
  @inline(never)
  private func bindDependenciesAndReduce(
    _ action: Action, origin: ActionOrigin, cause: Any?, group: inout EffectGroup?
  ) {
    DependencyValues.$_current.withValue(dependencies) {
      reduceWithDependencies(action, origin: origin, cause: cause, group: &group)
    }
  }

  private func reduceWithDependencies(
    _ action: Action, origin: ActionOrigin, cause: Any?, group: inout EffectGroup?
  ) {
    if !stepObservers.isEmpty { stepObservers.tellWillReduce() }
    emptyStateCaches()
    defer { emptyStateCaches() }
    let returnedEffect: Bool
    if !reduceContext.isNeededWhileReducing {
      returnedEffect = reduction(self, &currentState, action)
    } else {
      // NB: `forEach` logs the rows it writes to the current context (see
      // Observation/Rows/RowObservation.swift), and pulses their assignments (see Pulse.swift).
      let previous = ReduceContext.enter(reduceContext)
      returnedEffect = reduction(self, &currentState, action)
      ReduceContext.exit(to: previous)
    }
    if !stepObservers.isEmpty { tellStepObservers(action, origin: origin, cause: cause) }
    if returnedEffect { startPendingEffect(of: action, group: &group) }
    checkForDepartedChildren()
  }

  /// Empties the scoped stores' caches of the state (see ScopedStateCache.swift): before and
  /// after each write of the state, so that no cache holds storage that the reducer writes in
  /// place, and none shows a state that was replaced.
  @inline(__always)
  private func emptyStateCaches() {
    if !stateCaches.isEmpty { stateCaches.emptyAll() }
  }

  /// After an action, or a state replaced outside the reducer (time travel, a replay): the
  /// child instances that are no longer in the state have their effects cancelled and their
  /// queued actions dropped, whoever removed them. One flag check while no child effect runs.
  @inline(__always)
  private func checkForDepartedChildren() {
    if !childInstances.isEmpty || loop.queuedChildActions > 0 {
      cancelEffectsOfDepartedChildren()
    }
  }

  /// Cancels the effects, and drops the queued actions, of the child instances that the action
  /// just reduced removed or replaced, whichever reducer did it (see ChildNamespaceComponent.swift).
  @inline(never)
  private func cancelEffectsOfDepartedChildren() {
    effects.cancelEffectsOfDepartedChildren { self.currentState }
    guard loop.queuedChildActions > 0 else { return }
    // NB: marked now rather than checked when dequeued: an instance without an identity that
    // leaves and comes back before its action is dequeued is another instance.
    for index in queue.indices where !queue[index].namespace.isEmpty && !queue[index].isDropped {
      if !ChildNamespaceComponent.isPresent(queue[index].namespace, in: currentState) {
        queue[index].isDropped = true
      }
    }
  }

  /// Tells the debugging tools (see StepObservers.swift) about the action just reduced.
  @inline(never)
  private func tellStepObservers(_ action: Action, origin: ActionOrigin, cause: Any?) {
    stepObservers.tell(
      ReducedStep(action: action, origin: origin, cause: cause, state: currentState))
  }

  // NB: kept out of `reduce(_:origin:cause:group:)`: unspecialized code computes the metadata of
  // its generic locals (here `Effect<Action>`) on entry, whether or not the path that uses them
  // runs.
  @inline(never)
  private func startPendingEffect(of action: Action, group: inout EffectGroup?) {
    guard let effect = pendingEffect.take() else { return }
    let sendGroup: EffectGroup
    if let group {
      sendGroup = group
    } else {
      sendGroup = EffectGroup()
      group = sendGroup
    }
    // NB: the action is kept as the cause of what the effect sends only while a step observer
    // (a recorder, the Inspector) is there to read it.
    interpreter.start(
      effect,
      EffectContext(
        namespace: [], keys: [], sendGroup: sendGroup, taskGroups: [sendGroup],
        dependencies: dependencies, cause: stepObservers.isEmpty ? nil : action))
  }
}
