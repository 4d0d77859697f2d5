/// A child store's runtime: reads its state through to the parent and forwards its actions.
@MainActor
@usableFromInline
package final class ScopedCore<ParentState, ParentAction, State, Action>: Core<State, Action> {
  private let parent: Core<ParentState, ParentAction>
  private let toState: (ParentState) -> State
  private let fromAction: (Action) -> ParentAction

  @usableFromInline
  package init(
    parent: Core<ParentState, ParentAction>,
    toState: @escaping (ParentState) -> State,
    fromAction: @escaping (Action) -> ParentAction
  ) {
    self.parent = parent
    self.toState = toState
    self.fromAction = fromAction
  }

  override package var state: State { toState(parent.state) }
  override package var runtime: StoreRuntime { parent.runtime }
  override var isPresent: Bool { parent.isPresent }

  override package func send(_ action: Action, group: EffectGroup?) -> StoreTask {
    parent.send(fromAction(action), group: group)
  }
}

/// A child store over optional state: reads through while the state is present, and keeps the
/// last present value after it becomes nil (so a view being dismissed can still render).
@MainActor
final class OptionalScopedCore<ParentState, ParentAction, State, Action>: Core<State, Action> {
  private let parent: Core<ParentState, ParentAction>
  private let toState: (ParentState) -> State?
  private let fromAction: (Action) -> ParentAction
  private var lastPresentState: State

  init(
    parent: Core<ParentState, ParentAction>,
    initialState: State,
    toState: @escaping (ParentState) -> State?,
    fromAction: @escaping (Action) -> ParentAction
  ) {
    self.parent = parent
    self.lastPresentState = initialState
    self.toState = toState
    self.fromAction = fromAction
  }

  override package var state: State {
    if let state = toState(parent.state) {
      lastPresentState = state
      return state
    }
    return lastPresentState
  }

  override package var runtime: StoreRuntime { parent.runtime }
  override var isPresent: Bool { parent.isPresent && toState(parent.state) != nil }

  override package func send(_ action: Action, group: EffectGroup?) -> StoreTask {
    parent.send(fromAction(action), group: group)
  }
}
