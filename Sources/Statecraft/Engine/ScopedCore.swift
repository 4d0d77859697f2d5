// Owns a child store's runtime: reading its state through to the parent and forwarding its
// actions to it. One type serves every scope: a plain scope, a scope of optional state and a row
// store differ only in the `toState` they are given (the last two keep their last present state,
// see `LastPresentState` in Observation/Rows/RowIndex.swift) and in where their observed stores register.

/// A child store's runtime: reads its state through to the parent and forwards its actions.
@MainActor
@usableFromInline
package final class ScopedCore<ParentState, ParentAction, State, Action>: Core {
  private let parent: any Core<ParentState, ParentAction>
  private let toState: (ParentState) -> State
  private let fromAction: (Action) -> ParentAction
  /// Where the observed stores of this core register, when not with the runtime (a row store's
  /// register with its row index).
  private let registerObservedStore: ((any ObservedStore) -> Void)?
  /// The state last read through to the root, until the root's state is next written (see
  /// ScopedStateCache.swift); the core's stores read it directly.
  let cache = ScopedStateCache<State>()
  @usableFromInline package var stateCache: ScopedStateCache<State>? { cache }

  @usableFromInline
  package init(
    parent: any Core<ParentState, ParentAction>,
    toState: @escaping (ParentState) -> State,
    fromAction: @escaping (Action) -> ParentAction
  ) {
    self.parent = parent
    self.toState = toState
    self.fromAction = fromAction
    self.registerObservedStore = nil
  }

  init(
    parent: any Core<ParentState, ParentAction>,
    toState: @escaping (ParentState) -> State,
    fromAction: @escaping (Action) -> ParentAction,
    registerObservedStore: @escaping (any ObservedStore) -> Void
  ) {
    self.parent = parent
    self.toState = toState
    self.fromAction = fromAction
    self.registerObservedStore = registerObservedStore
  }

  @usableFromInline
  package var state: State {
    if let cached = cache.value { return cached }
    let state = toState(parent.state)
    cache.fill(state, in: runtime.stateCaches)
    return state
  }
  @usableFromInline
  package var runtime: StoreRuntime { parent.runtime }
  @usableFromInline
  package var root: any AnyRootCore { parent.root }

  @usableFromInline
  package func send(_ action: Action, group: EffectGroup?, cause: Any?) -> StoreTask {
    parent.send(fromAction(action), group: group, cause: cause)
  }

  @usableFromInline
  package func replaceState(_ state: State) -> Bool { false }

  /// A scope of a scope reads and sends through this core's parent, composing the two mappings:
  /// a send through a child store `n` levels deep makes one call to a core, not `n`.
  @usableFromInline
  package func scoped<ChildState, ChildAction>(
    toState childState: @escaping (State) -> ChildState,
    fromAction childAction: @escaping (ChildAction) -> Action
  ) -> any Core<ChildState, ChildAction> {
    let toState = self.toState
    let fromAction = self.fromAction
    return ScopedCore<ParentState, ParentAction, ChildState, ChildAction>(
      parent: parent,
      toState: { childState(toState($0)) },
      fromAction: { fromAction(childAction($0)) })
  }

  @usableFromInline
  package func register(observedStore: any ObservedStore) {
    if let registerObservedStore {
      registerObservedStore(observedStore)
    } else {
      runtime.observers.register(observedStore: observedStore)
    }
  }
}

extension ScopedCore {
  /// A core over optional state: reads through while the state is present, and keeps the last
  /// present value after it becomes nil (so a view being dismissed can still render).
  /// `leftState` is called with the core after each batch in which the state became nil.
  static func whilePresent(
    parent: any Core<ParentState, ParentAction>,
    initialState: State,
    toState: @escaping (ParentState) -> State?,
    fromAction: @escaping (Action) -> ParentAction,
    leftState: @escaping @MainActor (_ core: AnyObject) -> Void
  ) -> ScopedCore {
    let lastState = LastPresentState(initialState)
    let core = ScopedCore(
      parent: parent,
      toState: { lastState.keep(toState($0)) },
      fromAction: fromAction)
    lastState.follow(toState, in: parent, for: core, leftState: leftState)
    return core
  }
}

extension LastPresentState {
  /// After each batch, keeps the state `toState` reads in `parent`, and calls `leftState` with
  /// `core` in the batch in which it reads nil; until `core` is released. What a child store of
  /// optional state (`ScopedCore.whilePresent`), a presented child's and a stack element's
  /// (NavigationChildCore.swift) do to outlive their state.
  ///
  /// NB: a held store shows the state the child last had, read or not: after each batch the
  /// core keeps the state it reads through (a reference to the same storage, as a read does),
  /// until the core is released. The batch in which the state becomes nil is the one in which
  /// the parent lets go of the store.
  @MainActor
  func follow<ParentState, ParentAction>(
    _ toState: @escaping (ParentState) -> State?,
    in parent: any Core<ParentState, ParentAction>,
    for core: AnyObject,
    leftState: @escaping @MainActor (_ core: AnyObject) -> Void
  ) {
    var isPresent = true
    parent.runtime.observers.addStreamObserver(
      publish: { [weak core, weak parent] in
        guard let core, let parent else { return false }
        if let state = toState(parent.state) {
          self.value = state
          isPresent = true
        } else if isPresent {
          isPresent = false
          leftState(core)
        }
        return true
      },
      finish: {})
  }
}
