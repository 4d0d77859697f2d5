import CasePathsCore
import IdentifiedCollections

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

  /// A child store for one element of an identified collection, by id: nil while no element
  /// has that id.
  ///
  /// Prefer it to `scope(state: \.rows[id: id], ...)` for row stores: a batch re-checks the row
  /// stores of the rows it may have written only (the rows a `forEach` element action wrote; all of
  /// them after any other write to the collection), so a thousand observed rows cost what one
  /// does. Reading the scope observes only whether the row is present.
  ///
  /// ```swift
  /// ForEach(store.rows) { row in
  ///   if let rowStore = store.scope(state: \.rows, id: row.id, action: \.rows) {
  ///     RowView(store: rowStore)
  ///   }
  /// }
  /// ```
  public func scope<ID: Hashable & Sendable, ElementState, ElementAction>(
    state toRows: KeyPath<State, IdentifiedArray<ID, ElementState>>,
    id: ID,
    action toRowAction: CaseKeyPath<Action, IdentifiedAction<ID, ElementAction>>
  ) -> Store<ElementState, ElementAction>? {
    let embed = AnyCasePath(toRowAction)
    return scope(
      state: toRows, id: id,
      scopeID: ScopeID(state: toRows, action: RowScopeAction(toRowAction, id)),
      embed: { embed.embed(.element(id: id, action: $0)) })
  }

  /// A child store for one element of an identified collection, by id, whose actions are
  /// embedded with `embed`: `store.scope(state: \.rows, id: id, action: Action.rows)`.
  ///
  /// Without a case key path, the child store is cached by the place that asked for it (and the
  /// id): ask for it from one place in code per `state` key path.
  public func scope<ID: Hashable & Sendable, ElementState, ElementAction>(
    state toRows: KeyPath<State, IdentifiedArray<ID, ElementState>>,
    id: ID,
    action embed: @escaping (IdentifiedAction<ID, ElementAction>) -> Action,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    column: UInt = #column
  ) -> Store<ElementState, ElementAction>? {
    scope(
      state: toRows, id: id,
      scopeID: ScopeID(state: toRows, action: RowScopeAction("\(fileID):\(line):\(column)", id)),
      embed: { embed(.element(id: id, action: $0)) })
  }

  // MARK: - Building child stores

  private func scope<ID: Hashable & Sendable, ElementState, ElementAction>(
    state toRows: KeyPath<State, IdentifiedArray<ID, ElementState>>,
    id: ID,
    scopeID: ScopeID,
    embed: @escaping (ElementAction) -> Action
  ) -> Store<ElementState, ElementAction>? {
    let core = self.core
    let index = core.runtime.rowIndex(core: core, path: toRows) {
      IdentifiedRowIndex { [weak core] in core?.state[keyPath: toRows] }
    }
    let rowState = core.state[keyPath: toRows][id: id]
    index.observePresence(of: AnyHashable(id), isPresent: rowState != nil)
    guard let rowState else {
      children[scopeID] = nil
      return nil
    }
    if let child = children[scopeID] as? Store<ElementState, ElementAction> {
      return child
    }
    let child = Store<ElementState, ElementAction>(
      core: RowScopedCore(
        parent: core, toRows: toRows, id: id, index: index, initialState: rowState,
        fromAction: embed))
    children[scopeID] = child
    return child
  }

  private func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    id: ScopeID,
    embed: @escaping (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction> {
    if let child = children[id] as? Store<ChildState, ChildAction> {
      return child
    }
    let child = Store<ChildState, ChildAction>(
      core: core.scoped(toState: { $0[keyPath: toChildState] }, fromAction: embed))
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

/// Identifies a row store among a store's scopes: the action path and the row id.
struct RowScopeAction: Hashable {
  let action: AnyHashable
  let id: AnyHashable

  init(_ action: some Hashable, _ id: some Hashable) {
    self.action = AnyHashable(action)
    self.id = AnyHashable(id)
  }
}

extension Optional {
  /// Whether a value is present: observed by optional scopes instead of the value itself.
  var isPresent: Bool { self != nil }
}
