import IdentifiedCollections

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

  /// A scope of a scope reads and sends through this core's parent, composing the two mappings:
  /// a send through a child store `n` levels deep makes one call to a core, not `n`.
  override func scoped<ChildState, ChildAction>(
    toState childState: @escaping (State) -> ChildState,
    fromAction childAction: @escaping (ChildAction) -> Action
  ) -> Core<ChildState, ChildAction> {
    let toState = self.toState
    let fromAction = self.fromAction
    return ScopedCore<ParentState, ParentAction, ChildState, ChildAction>(
      parent: parent,
      toState: { childState(toState($0)) },
      fromAction: { fromAction(childAction($0)) })
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
    super.init()
    // NB: a held store shows the state the child last had, read or not: after each batch the
    // core keeps the state it reads through (a reference to the same storage, as a read does),
    // until the core is released.
    parent.runtime.addStreamObserver(
      publish: { [weak self] in
        guard let self else { return false }
        if let state = self.toState(self.parent.state) { self.lastPresentState = state }
        return true
      },
      finish: {})
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

/// A row store's runtime: reads one element of an identified collection of the parent, by id,
/// and keeps the last present value after the element is removed. Its observed stores register
/// with the collection's row index, so that a batch re-checks them only when it may have written
/// their row.
@MainActor
final class RowScopedCore<ParentState, ParentAction, ID: Hashable & Sendable, State, Action>:
  Core<State, Action>
{
  private let parent: Core<ParentState, ParentAction>
  private let toRows: KeyPath<ParentState, IdentifiedArray<ID, State>>
  private let id: ID
  private let index: RowIndex
  private let fromAction: (Action) -> ParentAction
  private var lastPresentState: State

  init(
    parent: Core<ParentState, ParentAction>,
    toRows: KeyPath<ParentState, IdentifiedArray<ID, State>>,
    id: ID,
    index: RowIndex,
    initialState: State,
    fromAction: @escaping (Action) -> ParentAction
  ) {
    self.parent = parent
    self.toRows = toRows
    self.id = id
    self.index = index
    self.lastPresentState = initialState
    self.fromAction = fromAction
    super.init()
    index.register(holder: self, for: AnyHashable(id))
  }

  override package var state: State {
    if let state = parent.state[keyPath: toRows][id: id] {
      lastPresentState = state
      return state
    }
    return lastPresentState
  }

  override package var runtime: StoreRuntime { parent.runtime }
  override var isPresent: Bool { parent.isPresent && parent.state[keyPath: toRows][id: id] != nil }

  override func register(observedStore: any ObservedStore) {
    index.register(observedStore, for: AnyHashable(id))
  }

  override package func send(_ action: Action, group: EffectGroup?) -> StoreTask {
    parent.send(fromAction(action), group: group)
  }
}

extension RowScopedCore: RowStateHolder {
  /// Keeps the row's state from `rows`, the collection as last published, when the row has left
  /// it: a held row store then shows the row's last state, read or not.
  func keepLastState(from rows: Any) {
    guard let rows = rows as? IdentifiedArray<ID, State>, let state = rows[id: id] else { return }
    lastPresentState = state
  }
}
