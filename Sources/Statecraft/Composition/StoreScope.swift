// Owns the ways of asking a store for a child store of part of its state, and the cache of the
// child stores it made. The overloads differ in what they mean, not only in how they are spelled,
// so none is folded into another (only overloads that differ in spelling alone may be folded):
//
// - The state: a key path (the child store is cached, identified by the path) or a closure (a new
//   store at each call, since a closure has no identity). A key path literal also converts to a
//   closure, so removing a key-path overload would still compile and silently lose the cache.
// - The state's shape: plain, optional (the store is nil while the state is), or one row of an
//   identified collection by id (re-checked only when that row is written).
// - The actions: a case key path (`\.profile`), an embedding function (`Action.profile`), or none
//   (a read-only scope that sends the parent's actions). Neither of the first two spellings
//   converts to the other, so one overload for both would break the calls written the other way.
//
// Store+Navigation.swift adds a presented child's store and a stack element's, each with a case
// key path or a hand-written `AnyCasePath`.
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
  /// A function has no identity, so the child store is identified by `state` and the child's
  /// action type: asking for it twice, from anywhere, gives the same store (the first embedding
  /// asked for is the one it uses). A state scoped twice with the same action type is scoped to
  /// one action case, so this is the embedding the first call gave.
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    action embed: @escaping (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction> {
    scope(
      state: toChildState,
      id: ScopeID(state: toChildState, action: EmbeddedAction(ChildAction.self)),
      embed: embed)
  }

  /// A child store whose state is computed from this store's by `toChildState`, and whose
  /// actions are embedded with `embed`: TCA's closure-based `scope(state:action:)`.
  ///
  /// ```swift
  /// let summary = store.scope(
  ///   state: { Summary(count: $0.items.count, total: $0.total) },
  ///   action: Action.summary)
  /// ```
  ///
  /// A closure has no identity, so each call makes a new store (hold the one you need); prefer a
  /// key path, which is cached. Readers of the child store observe the fields they read of the
  /// computed state, compared after each batch.
  public func scope<ChildState, ChildAction>(
    state toChildState: @escaping (State) -> ChildState,
    action embed: @escaping (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction> {
    Store<ChildState, ChildAction>(core: core.scoped(toState: toChildState, fromAction: embed))
  }

  /// A read-only view of part of this store's state that sends this store's actions: for a view
  /// or a view controller that shows derived state and sends the parent's actions.
  ///
  /// ```swift
  /// let header = store.scope(state: \.header)
  /// header.send(.refresh)  // an action of this store
  /// ```
  ///
  /// Asking twice for the same key path gives the same store.
  public func scope<ChildState>(
    state toChildState: KeyPath<State, ChildState>
  ) -> Store<ChildState, Action> {
    scope(
      state: toChildState, id: ScopeID(state: toChildState, action: ReadOnlyScope()),
      embed: { $0 })
  }

  /// A read-only view of state computed from this store's by `toChildState`, that sends this
  /// store's actions. Each call makes a new store (a closure has no identity).
  ///
  /// ```swift
  /// let badge = store.scope(state: { $0.unread.count })
  /// ```
  public func scope<ChildState>(
    state toChildState: @escaping (State) -> ChildState
  ) -> Store<ChildState, Action> {
    Store<ChildState, Action>(core: core.scoped(toState: toChildState, fromAction: { $0 }))
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
  ///
  /// The child store is identified by `state` and the child's action type, as for a
  /// non-optional state: asked twice from anywhere while the state is present, it is one store.
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState?>,
    action embed: @escaping (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction>? {
    scope(
      state: toChildState,
      id: ScopeID(state: toChildState, action: EmbeddedAction(ChildAction.self)),
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
    return rowStore(
      state: toRows, id: id,
      scopeID: ScopeID(state: toRows, action: RowScopeAction(toRowAction, id)),
      embed: { embed.embed(.element(id: id, action: $0)) })
  }

  /// A child store for one element of an identified collection, by id, whose actions are
  /// embedded with `embed`: `store.scope(state: \.rows, id: id, action: Action.rows)`.
  ///
  /// The child store is identified by `state`, the id and the row's action type: asked twice
  /// from anywhere, it is one store.
  public func scope<ID: Hashable & Sendable, ElementState, ElementAction>(
    state toRows: KeyPath<State, IdentifiedArray<ID, ElementState>>,
    id: ID,
    action embed: @escaping (IdentifiedAction<ID, ElementAction>) -> Action
  ) -> Store<ElementState, ElementAction>? {
    rowStore(
      state: toRows, id: id,
      scopeID: ScopeID(
        state: toRows, action: RowScopeAction(EmbeddedAction(ElementAction.self), id)),
      embed: { embed(.element(id: id, action: $0)) })
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
    trackRead(isPresentPath, value: childState != nil)
    guard let childState else {
      children[id] = nil
      return nil
    }
    if let child = children[id] as? Store<ChildState, ChildAction> {
      return child
    }
    let child = Store<ChildState, ChildAction>(
      core: ScopedCore.whilePresent(
        parent: core, initialState: childState, toState: { $0[keyPath: toChildState] },
        fromAction: embed, leftState: letGo(of: id)))
    children[id] = child
    return child
  }

  // MARK: - Letting go of departed children

  /// What the core of a child store calls once its child instance has left the state: this
  /// store lets go of the child store cached under `id`, if it is still the one whose core calls.
  ///
  /// The store is then released as soon as nothing outside holds it; a store still held (by a
  /// view being dismissed) keeps showing the child's last state. The core calls it from the
  /// check it already makes after each batch to keep that last state, so it costs no work per
  /// send while no child leaves.
  func letGo(of id: ScopeID) -> @MainActor (_ core: AnyObject) -> Void {
    { [weak self] core in
      guard let self, let child = self.children[id] as? any CachedChildStore,
        child.cachedCore === core
      else { return }
      self.children[id] = nil
    }
  }
}

/// A child store in its parent's cache, whatever its types: what the parent compares to let go
/// of the store of a departed child.
@MainActor
protocol CachedChildStore: AnyObject {
  var cachedCore: AnyObject { get }
}

extension Store: CachedChildStore {
  var cachedCore: AnyObject { core }
}

/// Identifies a scope made with an embed function among a store's scopes: a function has no
/// identity, so the child's action type stands for it.
struct EmbeddedAction: Hashable {
  let type: ObjectIdentifier
  init(_ type: Any.Type) { self.type = ObjectIdentifier(type) }
}

/// Identifies a read-only scope (one that sends the parent's actions) among a store's scopes.
struct ReadOnlyScope: Hashable {}

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
