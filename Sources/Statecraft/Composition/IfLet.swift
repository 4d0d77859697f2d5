import CasePathsCore
import ConcurrencyExtras
import IssueReporting

extension Reducer {
  /// Runs a child reducer on optional child state while it is present.
  ///
  /// ```swift
  /// var body: some Reducer<State, Action> {
  ///   Reduce { state, action in
  ///     switch action {
  ///     case .showDetail: state.detail = Detail.State(); return .none
  ///     case .detail(.closeTapped): state.detail = nil; return .none
  ///     case .detail: return .none
  ///     }
  ///   }
  ///   .ifLet(\.detail, action: \.detail) { Detail() }
  /// }
  /// ```
  ///
  /// The child runs before the parent. Its effects run in a cancellation namespace of the child
  /// instance: the instance is the child's `id` when its state is `Identifiable`, its case when
  /// it is an enum, and otherwise lasts from the state becoming non-nil to it becoming nil. When
  /// the instance leaves the state (set to nil, or replaced by a child of another id or case),
  /// whichever reducer does it and however far up, its effects are cancelled and the actions
  /// they would still send never reach a successor. A child action that arrives while the state
  /// is nil is reported as an issue.
  @inlinable
  public func ifLet<ChildState, ChildAction, Child: Reducer<ChildState, ChildAction>>(
    _ toChildState: WritableKeyPath<State, ChildState?>,
    action toChildAction: AnyCasePath<Action, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, Child> {
    _IfLetReducer(
      parent: self, child: child(), toChildState: toChildState, toChildAction: toChildAction,
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Runs a child reducer on optional child state while it is present.
  @inlinable
  public func ifLet<ChildState, ChildAction, Child: Reducer<ChildState, ChildAction>>(
    _ toChildState: WritableKeyPath<State, ChildState?>,
    action toChildAction: CaseKeyPath<Action, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, Child> {
    ifLet(
      toChildState, action: AnyCasePath(toChildAction), then: child,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

/// The reducer built by `ifLet(_:action:then:)`.
public struct _IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let child: Child
  @usableFromInline let toChildState: WritableKeyPath<Parent.State, Child.State?>
  @usableFromInline let toChildAction: AnyCasePath<Parent.Action, Child.Action>
  @usableFromInline let location: SourceLocation

  @usableFromInline
  init(
    parent: Parent,
    child: Child,
    toChildState: WritableKeyPath<Parent.State, Child.State?>,
    toChildAction: AnyCasePath<Parent.Action, Child.Action>,
    location: SourceLocation
  ) {
    self.parent = parent
    self.child = child
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.location = location
  }

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    // NB: the effects of a child that the parent (or any reducer) dismisses or replaces are
    // cancelled by the root after the action (see ChildNamespaceComponent.swift).
    let childEffect = reduceChild(into: &state, action: action)
    return .merging(childEffect, parent.reduce(into: &state, action: action))
  }

  private func reduceChild(
    into state: inout Parent.State, action: Parent.Action
  ) -> Effect<Parent.Action> {
    guard let childAction = toChildAction.extract(from: action) else { return .none }
    guard state[keyPath: toChildState] != nil else {
      location.report(
        Diagnostics.ifLetActionForNilState(
          action: action, statePath: toChildState, parent: Parent.self))
      return .none
    }
    let effect = child.reduce(into: &state[keyPath: toChildState]!, action: childAction)
    if effect.isNone { return .none }
    let toChildAction = self.toChildAction
    return effect.map { toChildAction.embed($0) }
      .namespaced(namespace(for: state[keyPath: toChildState]))
  }

  /// The namespace of the child instance whose state is `childState` (read after the child
  /// reduced: a child that changed its own case starts a new instance).
  private func namespace(for childState: Child.State?) -> AnyHashableSendable {
    AnyHashableSendable(
      ChildNamespaceComponent(
        IfLetChildLocator(
          toChildState: UncheckedSendable(toChildState),
          identity: childState.flatMap { ChildIdentity.of($0) })))
  }
}
