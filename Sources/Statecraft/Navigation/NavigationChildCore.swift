/// The runtime of a child store of one presentation or one stack element: it reads that child
/// while it is there, keeps its last state after it has gone (a view being dismissed can still
/// draw), tells the parent store to let go of it when the child goes, and drops, with a report, what it is sent after the child has gone, so that a view
/// holding it can never reach a child presented or pushed after it.
@MainActor
final class NavigationChildCore<ParentState, ParentAction, State, Action>: Core {
  private let parent: any Core<ParentState, ParentAction>
  private let read: (ParentState) -> State?
  private let embed: (Action) -> ParentAction
  private let reportGone: (Action) -> Void
  private var lastState: State

  init(
    parent: any Core<ParentState, ParentAction>,
    initialState: State,
    read: @escaping (ParentState) -> State?,
    embed: @escaping (Action) -> ParentAction,
    reportGone: @escaping (Action) -> Void,
    leftState: @escaping @MainActor (_ core: AnyObject) -> Void
  ) {
    self.parent = parent
    self.lastState = initialState
    self.read = read
    self.embed = embed
    self.reportGone = reportGone
    var isPresent = true
    // NB: a held store shows the state the child last had, read or not: after each batch the
    // core keeps the state it reads through, until the core is released. The batch in which the
    // child leaves is the one in which the parent lets go of the store (`leftState`).
    parent.runtime.addStreamObserver(
      publish: { [weak self] in
        guard let self else { return false }
        if let state = self.read(self.parent.state) {
          self.lastState = state
          isPresent = true
        } else if isPresent {
          isPresent = false
          leftState(self)
        }
        return true
      },
      finish: {})
  }

  package var state: State {
    if let state = read(parent.state) { lastState = state }
    return lastState
  }

  package var runtime: StoreRuntime { parent.runtime }

  package func send(_ action: Action, group: EffectGroup?) -> StoreTask {
    guard read(parent.state) != nil else {
      reportGone(action)
      return StoreTask(nil)
    }
    return parent.send(embed(action), group: group)
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
