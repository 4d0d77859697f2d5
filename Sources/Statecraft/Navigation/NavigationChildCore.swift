// Owns the runtime of a presented child's store and a stack element's: a scope that outlives its
// state as `ScopedCore.whilePresent` does (with the same `LastPresentState`), and that drops what
// it is sent once its child has gone.

/// The runtime of a child store of one presentation or one stack element: it reads that child
/// while it is there, keeps its last state after it has gone (a view being dismissed can still
/// draw), tells the parent store to let go of it when the child goes, and drops, with a report,
/// what it is sent after the child has gone, so that a view holding it can never reach a child
/// presented or pushed after it.
///
/// NB: not a `ScopedCore`: the check before each send is what sets it apart, and a scope's send
/// path pays nothing for it.
@MainActor
final class NavigationChildCore<ParentState, ParentAction, State, Action>: Core {
  private let parent: any Core<ParentState, ParentAction>
  private let read: (ParentState) -> State?
  private let embed: (Action) -> ParentAction
  private let reportGone: (Action) -> Void
  private let lastState: LastPresentState<State>

  init(
    parent: any Core<ParentState, ParentAction>,
    initialState: State,
    read: @escaping (ParentState) -> State?,
    embed: @escaping (Action) -> ParentAction,
    reportGone: @escaping (Action) -> Void,
    leftState: @escaping @MainActor (_ core: AnyObject) -> Void
  ) {
    self.parent = parent
    self.lastState = LastPresentState(initialState)
    self.read = read
    self.embed = embed
    self.reportGone = reportGone
    lastState.follow(read, in: parent, for: self, leftState: leftState)
  }

  package var state: State { lastState.keep(read(parent.state)) }

  package var runtime: StoreRuntime { parent.runtime }
  package var root: any AnyRootCore { parent.root }
  @usableFromInline package var stateCache: ScopedStateCache<State>? { nil }

  package func send(_ action: Action, group: EffectGroup?, cause: Any?) -> StoreTask {
    guard read(parent.state) != nil else {
      reportGone(action)
      return StoreTask(nil)
    }
    return parent.send(embed(action), group: group, cause: cause)
  }

  package func replaceState(_ state: State) -> Bool { false }

  package func scoped<ChildState, ChildAction>(
    toState: @escaping (State) -> ChildState,
    fromAction: @escaping (ChildAction) -> Action
  ) -> any Core<ChildState, ChildAction> {
    ScopedCore(parent: self, toState: toState, fromAction: fromAction)
  }

  package func register(observedStore: any ObservedStore) {
    runtime.observers.register(observedStore: observedStore)
  }
}

/// Identifies the child store of one presentation or one stack element among a store's scopes.
struct NavigationScope: Hashable {
  let action: AnyHashable
  let id: AnyHashable
}
