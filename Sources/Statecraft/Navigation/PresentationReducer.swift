import CasePathsCore
import ConcurrencyExtras

extension Reducer {
  /// Runs a child reducer on presented child state while it is presented: TCA's
  /// `ifLet(\.$destination, action: \.destination)`.
  ///
  /// ```swift
  /// struct State: Equatable { @Presents var detail: Detail.State? }
  /// enum Action { case detail(PresentationAction<Detail.Action>), showDetail }
  ///
  /// var body: some Reducer<State, Action> {
  ///   Reduce { state, action in
  ///     switch action {
  ///     case .showDetail: state.detail = Detail.State(); return .none
  ///     case .detail: return .none
  ///     }
  ///   }
  ///   .ifLet(\.$detail, action: \.detail) { Detail() }
  /// }
  /// ```
  ///
  /// - The child runs before the parent for `.presented` actions; for `.dismiss` the parent runs
  ///   first (it still sees the child), then the child's state is set to nil.
  /// - The child's effects run in a namespace of the presentation: when it is dismissed or
  ///   replaced by another presentation (by any reducer, at any depth) they are cancelled, and
  ///   the actions they would still send are dropped, never delivered to the new child.
  /// - A child action, or a `.dismiss`, that arrives while nothing is presented is reported as an
  ///   issue.
  /// - The child can end its own presentation with `Effect.dismiss()` or a ``DismissEffect``.
  /// - An ``AlertState`` or ``ConfirmationDialogState`` child (or an enum destination in a case
  ///   that holds one) is dismissed by any of its actions (a pressed button). What counts is the
  ///   child before the action: a child that turns itself into an alert shows it. An action for
  ///   another case of the destination is reported, and leaves the alert up.
  @inlinable
  public func ifLet<ChildState, ChildAction, Child: Reducer<ChildState, ChildAction>>(
    _ toPresentation: WritableKeyPath<State, PresentationState<ChildState>>,
    action toPresentationAction: AnyCasePath<Action, PresentationAction<ChildAction>>,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, Child> {
    _PresentationReducer(
      parent: self, child: child(), toPresentation: toPresentation,
      toPresentationAction: toPresentationAction,
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Runs a child reducer on presented child state while it is presented.
  @inlinable
  public func ifLet<ChildState, ChildAction, Child: Reducer<ChildState, ChildAction>>(
    _ toPresentation: WritableKeyPath<State, PresentationState<ChildState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<ChildAction>>,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, Child> {
    ifLet(
      toPresentation, action: AnyCasePath(toPresentationAction), then: child,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Presents child state that has no reducer of its own: an ``AlertState`` or a
  /// ``ConfirmationDialogState``, whose buttons send the parent the child's actions.
  ///
  /// ```swift
  /// struct State: Equatable { @Presents var alert: AlertState<Action.Alert>? }
  /// enum Action { case alert(PresentationAction<Alert>); enum Alert { case confirmDelete } }
  ///
  /// Reduce { state, action in ... }
  ///   .ifLet(\.$alert, action: \.alert)
  /// ```
  ///
  /// Only an alert or a dialog may leave out the child closure, as in TCA (or an enum
  /// destination whose state names its reducer: see ``CaseReducer``). Any other child needs its
  /// reducer: `.ifLet(\.$detail, action: \.detail) { Detail() }`.
  @inlinable
  public func ifLet<ChildState: _EphemeralState, ChildAction>(
    _ toPresentation: WritableKeyPath<State, PresentationState<ChildState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<ChildAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, EmptyReducer<ChildState, ChildAction>> {
    ifLet(
      toPresentation, action: AnyCasePath(toPresentationAction),
      then: { EmptyReducer() },
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Presents child state that has no reducer of its own, with a hand-written case path.
  @inlinable
  public func ifLet<ChildState: _EphemeralState, ChildAction>(
    _ toPresentation: WritableKeyPath<State, PresentationState<ChildState>>,
    action toPresentationAction: AnyCasePath<Action, PresentationAction<ChildAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, EmptyReducer<ChildState, ChildAction>> {
    ifLet(
      toPresentation, action: toPresentationAction, then: { EmptyReducer() },
      fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

/// The reducer built by `ifLet(_:action:then:)` over a ``PresentationState``.
public struct _PresentationReducer<Parent: Reducer, Child: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let child: Child
  @usableFromInline let toPresentation:
    WritableKeyPath<Parent.State, PresentationState<Child.State>>
  @usableFromInline let toPresentationAction:
    AnyCasePath<Parent.Action, PresentationAction<Child.Action>>
  @usableFromInline let location: SourceLocation

  @usableFromInline
  init(
    parent: Parent,
    child: Child,
    toPresentation: WritableKeyPath<Parent.State, PresentationState<Child.State>>,
    toPresentationAction: AnyCasePath<Parent.Action, PresentationAction<Child.Action>>,
    location: SourceLocation
  ) {
    self.parent = parent
    self.child = child
    self.toPresentation = toPresentation
    self.toPresentationAction = toPresentationAction
    self.location = location
  }

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    // NB: the effects of a presentation that any reducer dismisses or replaces are cancelled by
    // the root after the action (see ChildNamespaceComponent.swift). The root finds the presentation
    // through the `Scope`s above; a parent that runs this reducer on state it scoped by hand
    // hides it, so this reducer also cancels a presentation it sees end while it reduces.
    guard let presented = state[keyPath: toPresentation].id else {
      return reduceParentAndChild(into: &state, action: action)
    }
    let child = state[keyPath: toPresentation].value.flatMap { ChildIdentity.of($0) }
    let effect = reduceParentAndChild(into: &state, action: action)
    guard state[keyPath: toPresentation].id != presented else { return effect }
    return .merge(effect, .cancelNamespace(namespace(id: presented, child: child)))
  }

  private func reduceParentAndChild(into state: inout Parent.State, action: Parent.Action)
    -> Effect<Parent.Action>
  {
    guard let presentationAction = toPresentationAction.extract(from: action) else {
      return parent.reduce(into: &state, action: action)
    }
    switch presentationAction {
    case .presented(let childAction):
      let presented = state[keyPath: toPresentation].id
      // NB: whether the child was an alert or a dialog *before* the action: a child that turns
      // itself into an alert (a destination changing its own case) shows that alert.
      let wasEphemeral =
        presented != nil
        && dismissesEphemeral(state[keyPath: toPresentation].value, action: childAction)
      let childEffect = reduceChild(into: &state, action: childAction, action: action)
      let parentEffect = parent.reduce(into: &state, action: action)
      // NB: an alert or a dialog goes away with the button that was pressed, unless the parent
      // presented something else in its place.
      if wasEphemeral, let presented, state[keyPath: toPresentation].id == presented {
        state[keyPath: toPresentation].wrappedValue = nil
      }
      return .merging(childEffect, parentEffect)
    case .dismiss:
      guard let presented = state[keyPath: toPresentation].id else {
        location.report(
          Diagnostics.dismissWhileNothingPresented(
            action: action, statePath: toPresentation, parent: Parent.self))
        return parent.reduce(into: &state, action: action)
      }
      let parentEffect = parent.reduce(into: &state, action: action)
      if state[keyPath: toPresentation].id == presented {
        state[keyPath: toPresentation].wrappedValue = nil
      }
      return parentEffect
    }
  }

  private func reduceChild(
    into state: inout Parent.State, action childAction: Child.Action, action: Parent.Action
  ) -> Effect<Parent.Action> {
    guard let id = state[keyPath: toPresentation].id,
      state[keyPath: toPresentation].value != nil
    else {
      location.report(
        Diagnostics.presentationActionWhileNothingPresented(
          action: action, statePath: toPresentation, parent: Parent.self))
      return .none
    }
    let effect = child.reduce(into: &state[keyPath: toPresentation].value!, action: childAction)
    if effect.isNone { return .none }
    let toPresentationAction = self.toPresentationAction
    return effect.map { toPresentationAction.embed(.presented($0)) }
      .withDismissal { send in
        await send(toPresentationAction.embed(.dismiss))
      }
      .namespaced(
        namespace(
          id: id, child: state[keyPath: toPresentation].value.flatMap { ChildIdentity.of($0) }))
  }

  /// The namespace of the presentation `id` whose child has the identity `child` (its case or
  /// `id`, read after the child reduced: a child that changed its own case starts a new
  /// instance).
  private func namespace(id: PresentationID, child: AnyHashableSendable?) -> AnyHashableSendable {
    AnyHashableSendable(
      ChildNamespaceComponent(
        PresentationLocator(
          toPresentation: UncheckedSendable(toPresentation),
          identity: PresentedIdentity(presentation: id, child: child))))
  }
}

/// State that is dismissed by any of its actions: an alert, a confirmation dialog.
public protocol _EphemeralState {
  /// The type of the actions its buttons send.
  static var _buttonActionType: Any.Type { get }
}

/// Whether `action`, sent to the presented `state`, dismisses it: `state` is an alert or a
/// dialog, or an enum destination in a case that holds one and `action` is that case's (its
/// payload is one of the alert's actions). An action for another case of the destination (a
/// misuse, which the destination's `Scope` reports) leaves the alert up.
// NB: runs for every action of a presented child: a child that is not an enum (a sheet's
// struct) is answered by its conformance alone, without reflecting it.
func dismissesEphemeral<State, Action>(_ state: State?, action: Action) -> Bool {
  guard let state else { return false }
  if state is any _EphemeralState { return true }
  guard EnumTag.of(state) != nil,
    let payload = Mirror(reflecting: state).children.first?.value as? any _EphemeralState
  else { return false }
  let buttonActionType = type(of: payload)._buttonActionType
  if Action.self == buttonActionType { return true }
  guard EnumTag.of(action) != nil,
    let actionPayload = Mirror(reflecting: action).children.first?.value
  else { return false }
  return type(of: actionPayload) == buttonActionType
}
