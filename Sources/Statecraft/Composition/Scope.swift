import CasePathsCore

/// Runs a child reducer on a part of the parent's state, for the parent's actions that carry a
/// child action.
///
/// ```swift
/// var body: some Reducer<State, Action> {
///   Scope(state: \.profile, action: \.profile) { Profile() }
///   Reduce { state, action in ... }  // runs after the child
/// }
/// ```
///
/// The action path is a case key path (from `@CasePathable` enums) or an `AnyCasePath` built from
/// an embed and an extract function, for code that avoids macros:
///
/// ```swift
/// Scope(
///   state: \.profile,
///   action: AnyCasePath(embed: Action.profile, extract: { if case .profile(let a) = $0 { a } else { nil } })
/// ) { Profile() }
/// ```
///
/// The child's effects are mapped to parent actions. A `Scope` does not give its child a
/// cancellation namespace: the parent may cancel the child's effects by id. (`ifLet` and
/// `forEach` children do get one.)
public struct Scope<ParentState, ParentAction, Child: Reducer>: Reducer {
  @usableFromInline let toChildState: WritableKeyPath<ParentState, Child.State>
  @usableFromInline let toChildAction: AnyCasePath<ParentAction, Child.Action>
  @usableFromInline let child: Child

  /// Scopes `child` to the state at `state` and the actions of the case at `action`.
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: AnyCasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where Child.State == ChildState, Child.Action == ChildAction {
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.child = child()
  }

  /// Scopes `child` to the state at `state` and the actions of the case at `action`.
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where Child.State == ChildState, Child.Action == ChildAction {
    self.init(state: toChildState, action: AnyCasePath(toChildAction), child: child)
  }

  @inlinable
  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = toChildAction.extract(from: action) else { return .none }
    let effect = child.reduce(into: &state[keyPath: toChildState], action: childAction)
    if effect.isNone { return .none }
    let toChildAction = self.toChildAction
    return effect.map { toChildAction.embed($0) }
  }
}
