import CasePathsCore

extension Store {
  /// A child store for part of this store's state and a case of its actions.
  ///
  /// The child reads its state through to this store (there is one source of truth) and sends
  /// its actions here, embedded with `action`. Asking twice for the same scope gives the same
  /// store.
  ///
  /// ```swift
  /// let profileStore = store.scope(state: \.profile, action: \.profile)
  /// profileStore.send(.rename("Blob"))  // the root receives .profile(.rename("Blob"))
  /// ```
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    action toChildAction: CaseKeyPath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    let embed = AnyCasePath(toChildAction)
    return scope(
      state: toChildState,
      id: ScopeID(state: toChildState, action: toChildAction),
      embed: { embed.embed($0) })
  }

  /// A child store for part of this store's state, whose actions are embedded with `embed`:
  /// `store.scope(state: \.profile, action: Action.profile)`.
  ///
  /// Without a case key path, the child store is cached by the place that asked for it: ask for
  /// a scope from one place in code per `state` key path.
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    action embed: @escaping (ChildAction) -> Action,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    column: UInt = #column
  ) -> Store<ChildState, ChildAction> {
    scope(
      state: toChildState,
      id: ScopeID(state: toChildState, action: "\(fileID):\(line):\(column)"),
      embed: embed)
  }

  /// A child store for optional state: nil while the state is nil.
  ///
  /// Reading the scope observes only whether the state is present, not its contents. After the
  /// state becomes nil, a child store that is still held keeps showing its last state.
  ///
  /// ```swift
  /// if let detailStore = store.scope(state: \.detail, action: \.detail) {
  ///   DetailView(store: detailStore)
  /// }
  /// ```
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState?>,
    action toChildAction: CaseKeyPath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction>? {
    let embed = AnyCasePath(toChildAction)
    return scope(
      state: toChildState,
      id: ScopeID(state: toChildState, action: toChildAction),
      embed: { embed.embed($0) })
  }

  /// A child store for optional state, whose actions are embedded with `embed`: nil while the
  /// state is nil.
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState?>,
    action embed: @escaping (ChildAction) -> Action,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    column: UInt = #column
  ) -> Store<ChildState, ChildAction>? {
    scope(
      state: toChildState,
      id: ScopeID(state: toChildState, action: "\(fileID):\(line):\(column)"),
      embed: embed)
  }

  // MARK: - Building child stores

  private func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    id: ScopeID,
    embed: @escaping (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction> {
    if let child = children[id] as? Store<ChildState, ChildAction> {
      return child
    }
    let child = Store<ChildState, ChildAction>(
      core: ScopedCore(
        parent: core, toState: { $0[keyPath: toChildState] }, fromAction: embed))
    children[id] = child
    return child
  }

  private func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState?>,
    id: ScopeID,
    embed: @escaping (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction>? {
    let isPresentPath = toChildState.appending(path: \Optional<ChildState>.isPresent)
    let childState = core.state[keyPath: toChildState]
    observe(isPresentPath, value: childState != nil)
    guard let childState else {
      children[id] = nil
      return nil
    }
    if let child = children[id] as? Store<ChildState, ChildAction> {
      return child
    }
    let child = Store<ChildState, ChildAction>(
      core: OptionalScopedCore(
        parent: core, initialState: childState, toState: { $0[keyPath: toChildState] },
        fromAction: embed))
    children[id] = child
    return child
  }
}

extension Optional {
  /// Whether a value is present: observed by optional scopes instead of the value itself.
  var isPresent: Bool { self != nil }
}
