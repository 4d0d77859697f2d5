import CasePathsCore
import IssueReporting

extension Store {
  /// A child store of the presented child: nil while nothing is presented.
  ///
  /// ```swift
  /// if let detail = store.scope(state: \.$detail, action: \.detail) {
  ///   DetailView(store: detail)
  /// }
  /// ```
  ///
  /// Reading it observes which presentation is shown, not the child's contents. Each
  /// presentation gets its own store: one that is still held after its presentation was
  /// dismissed or replaced shows the child's last state, and what it is sent then is dropped and
  /// reported, never delivered to the child that replaced it.
  public func scope<ChildState, ChildAction>(
    state toPresentation: KeyPath<State, PresentationState<ChildState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<ChildAction>>
  ) -> Store<ChildState, ChildAction>? {
    let embed = AnyCasePath(toPresentationAction)
    return presentedStore(
      toPresentation, scopeAction: AnyHashable(toPresentationAction),
      embed: { embed.embed(.presented($0)) })
  }

  /// A child store of the presented child, by the case key path of its actions alone
  /// (`\.destination.addContact`, which reaches through `presented`): nil while nothing is
  /// presented.
  ///
  /// ```swift
  /// if let form = store.scope(state: \.$destination[case: \.form], action: \.destination.form) {
  ///   FormView(store: form)
  /// }
  /// ```
  // NB: where `\.destination.form` reads as the child's case (see `PresentationAction`'s case
  // paths), this keeps it a presented store rather than the plain scope's store of a
  // `PresentationState`.
  public func scope<ChildState, ChildAction>(
    state toPresentation: KeyPath<State, PresentationState<ChildState>>,
    action toChildAction: CaseKeyPath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction>? {
    let embed = AnyCasePath(toChildAction)
    return presentedStore(
      toPresentation, scopeAction: AnyHashable(toChildAction),
      embed: { embed.embed($0) })
  }

  /// A child store of the presented child, with a hand-written case path: nil while nothing is
  /// presented.
  public func scope<ChildState, ChildAction>(
    state toPresentation: KeyPath<State, PresentationState<ChildState>>,
    action toPresentationAction: AnyCasePath<Action, PresentationAction<ChildAction>>
  ) -> Store<ChildState, ChildAction>? {
    presentedStore(
      toPresentation, scopeAction: AnyHashable(EmbeddedAction(ChildAction.self)),
      embed: { toPresentationAction.embed(.presented($0)) })
  }

  /// A child store of the stack element `id`: nil while it is not on the stack.
  ///
  /// ```swift
  /// if let detail = store.scope(state: \.path, id: id, action: \.path) {
  ///   DetailView(store: detail)
  /// }
  /// ```
  ///
  /// A store that is still held after its element was popped shows the element's last state,
  /// and what it is sent then is dropped and reported.
  public func scope<ElementState, ElementAction>(
    state toStack: KeyPath<State, StackState<ElementState>>,
    id: StackElementID,
    action toStackAction: CaseKeyPath<Action, StackAction<ElementState, ElementAction>>
  ) -> Store<ElementState, ElementAction>? {
    let embed = AnyCasePath(toStackAction)
    return elementStore(
      toStack, id: id, scopeAction: AnyHashable(toStackAction), embed: { embed.embed($0) })
  }

  /// A child store of the stack element `id`, with a hand-written case path.
  public func scope<ElementState, ElementAction>(
    state toStack: KeyPath<State, StackState<ElementState>>,
    id: StackElementID,
    action toStackAction: AnyCasePath<Action, StackAction<ElementState, ElementAction>>
  ) -> Store<ElementState, ElementAction>? {
    elementStore(
      toStack, id: id, scopeAction: AnyHashable(EmbeddedAction(ElementAction.self)),
      embed: { toStackAction.embed($0) })
  }

  // MARK: - Building navigation child stores

  private func presentedStore<ChildState, ChildAction>(
    _ toPresentation: KeyPath<State, PresentationState<ChildState>>,
    scopeAction: AnyHashable,
    embed: @escaping (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction>? {
    // NB: observes the presentation's identity only: a view re-renders when another child is
    // presented, not when the presented child changes.
    guard let id = self[dynamicMember: toPresentation.appending(path: \.id)],
      let childState = core.state[keyPath: toPresentation].value
    else { return nil }
    let scopeID = ScopeID(
      state: toPresentation, action: NavigationScope(action: scopeAction, id: AnyHashable(id)))
    if let child = children[scopeID] as? Store<ChildState, ChildAction> { return child }
    // NB: the stores of earlier presentations of this path were let go after the batch in which
    // they were dismissed or replaced (`letGo(of:)`), so the cache holds no history.
    let child = Store<ChildState, ChildAction>(
      core: NavigationChildCore(
        parent: core, initialState: childState,
        read: { state in
          let presentation = state[keyPath: toPresentation]
          return presentation.id == id ? presentation.value : nil
        },
        embed: { embed($0) },
        reportGone: { action in
          reportIssue(
            Diagnostics.presentedStoreSendAfterDismissal(
              action: action, statePath: toPresentation))
        },
        leftState: letGo(of: scopeID)))
    children[scopeID] = child
    return child
  }

  private func elementStore<ElementState, ElementAction>(
    _ toStack: KeyPath<State, StackState<ElementState>>,
    id: StackElementID,
    scopeAction: AnyHashable,
    embed: @escaping (StackAction<ElementState, ElementAction>) -> Action
  ) -> Store<ElementState, ElementAction>? {
    let ids = self[dynamicMember: toStack.appending(path: \.ids)]
    let scopeID = ScopeID(
      state: toStack, action: NavigationScope(action: scopeAction, id: AnyHashable(id)))
    guard ids.contains(id), let elementState = core.state[keyPath: toStack][id: id] else {
      children[scopeID] = nil
      return nil
    }
    if let child = children[scopeID] as? Store<ElementState, ElementAction> { return child }
    let child = Store<ElementState, ElementAction>(
      core: NavigationChildCore(
        parent: core, initialState: elementState,
        read: { $0[keyPath: toStack][id: id] },
        embed: { embed(.element(id: id, action: $0)) },
        reportGone: { action in
          reportIssue(
            Diagnostics.stackActionForMissingElement(
              action: action, id: id, statePath: toStack, parent: State.self))
        },
        leftState: letGo(of: scopeID)))
    children[scopeID] = child
    return child
  }
}
