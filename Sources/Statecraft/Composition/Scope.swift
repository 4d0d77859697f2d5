import CasePathsCore
import ConcurrencyExtras

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
/// The child's effects are mapped to parent actions. A `Scope` over a key path does not give its
/// child a cancellation namespace: the parent may cancel the child's effects by id. (`ifLet`,
/// `forEach` and a `Scope` over an enum case do give one.)
///
/// A `Scope` over a case of an enum state (TCA's `ifCaseLet`) runs the child while the state is
/// in that case: pass a case path (`AnyCasePath` or a case key path) as `state`.
public struct Scope<ParentState, ParentAction, Child: Reducer>: Reducer {
  @usableFromInline
  enum StatePath {
    case keyPath(WritableKeyPath<ParentState, Child.State>)
    case casePath(AnyCasePath<ParentState, Child.State>, SourceLocation)
  }

  // NB: a `Scope` is one reference to its configuration, built once in `init`. Held inline, a
  // level would be its paths *and* every level below it, and the optimizer copies that whole
  // value to the stack at each level of each action (before calling the action's `extract`, and
  // the child before calling its `reduce`): a send through nested scopes copied a sum that grew
  // with the square of the depth. A reference is one word whatever is below it, and the fields
  // of a final class's `let`s are read in place.
  @usableFromInline let storage: Storage

  /// What a `Scope` is made of, behind one reference (see `storage`).
  @usableFromInline
  final class Storage {
    @usableFromInline let toChildState: StatePath
    /// The child's offset in the parent's state when `toChildState` is a key path of stored
    /// properties (the usual case), found once, when the `Scope` is built: the fast path of
    /// `reduce(into:action:)`.
    @usableFromInline let childOffset: Int?
    @usableFromInline let toChildAction: AnyCasePath<ParentAction, Child.Action>
    @usableFromInline let child: Child

    @inlinable
    init(
      toChildState: StatePath, childOffset: Int?,
      toChildAction: AnyCasePath<ParentAction, Child.Action>, child: Child
    ) {
      self.toChildState = toChildState
      self.childOffset = childOffset
      self.toChildAction = toChildAction
      self.child = child
    }
  }

  /// Scopes `child` to the state at `state` and the actions of the case at `action`.
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: AnyCasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where Child.State == ChildState, Child.Action == ChildAction {
    self.storage = Storage(
      toChildState: .keyPath(toChildState),
      childOffset: MemoryLayout<ParentState>.offset(of: toChildState),
      toChildAction: toChildAction, child: child())
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

  /// Scopes `child` to the state at a key path and the actions of the case at `action`: TCA's
  /// spelling without the `state:` label.
  ///
  /// ```swift
  /// Scope(\.syncUpsList, action: \.syncUpsList) { SyncUpsList() }
  /// ```
  @inlinable
  public init<ChildState, ChildAction>(
    _ toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> _ child: () -> Child
  ) where Child.State == ChildState, Child.Action == ChildAction {
    self.init(state: toChildState, action: AnyCasePath(toChildAction), child: child)
  }

  /// Scopes `child` to one case of an enum state: it runs while the state is in that case.
  ///
  /// ```swift
  /// enum State { case loggedIn(LoggedIn.State), loggedOut(LoggedOut.State) }
  ///
  /// var body: some Reducer<State, Action> {
  ///   Scope(state: \.loggedIn, action: \.loggedIn) { LoggedIn() }
  ///   Scope(state: \.loggedOut, action: \.loggedOut) { LoggedOut() }
  /// }
  /// ```
  ///
  /// The child's effects run in a cancellation namespace of the case (and of the payload's `id`
  /// when it is `Identifiable`): when the state leaves the case, whichever reducer changes it,
  /// they are cancelled and their late actions are dropped. A child action that arrives while
  /// the state is in another case is reported as an issue.
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: AnyCasePath<ParentState, ChildState>,
    action toChildAction: AnyCasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where Child.State == ChildState, Child.Action == ChildAction {
    self.storage = Storage(
      toChildState: .casePath(
        toChildState,
        SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)),
      childOffset: nil, toChildAction: toChildAction, child: child())
  }

  /// Scopes `child` to one case of an enum state: it runs while the state is in that case.
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: CaseKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where Child.State == ChildState, Child.Action == ChildAction {
    self.init(
      state: AnyCasePath(toChildState), action: AnyCasePath(toChildAction), child: child,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  @inlinable
  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    let storage = self.storage
    guard let childAction = storage.toChildAction.extract(from: action) else { return .none }
    // NB: a child at a known offset (a stored property, the usual case) is reduced in place
    // through a pointer, without a closure and without reading `toChildState`: a projection by
    // the key-path runtime costs more than a counter's reducer, and copying the `StatePath` (or
    // capturing this scope in a closure) costs as much again, at every level of every action.
    let effect: Effect<Child.Action>
    if let childOffset = storage.childOffset {
      effect = Self.reduceChild(
        storage.child, at: &state, offset: childOffset, action: childAction)
    } else {
      switch storage.toChildState {
      case .keyPath(let toChildState):
        effect = storage.child.reduce(into: &state[keyPath: toChildState], action: childAction)
      case .casePath(let toChildState, let location):
        return reduceCase(toChildState, location: location, into: &state, action: childAction)
      }
    }
    if effect.isNone { return .none }
    return lift(effect)
  }

  /// Runs `child` on its state at `offset` in the parent's state at `state`.
  @inlinable
  static func reduceChild(
    _ child: Child, at state: UnsafeMutablePointer<ParentState>, offset: Int,
    action childAction: Child.Action
  ) -> Effect<Child.Action> {
    child.reduce(
      into: &(UnsafeMutableRawPointer(state) + offset).assumingMemoryBound(to: Child.State.self)
        .pointee,
      action: childAction)
  }

  /// A key-path child's effect, as an effect of the parent.
  @usableFromInline
  func lift(_ effect: Effect<Child.Action>) -> Effect<ParentAction> {
    guard case .keyPath(let toChildState) = storage.toChildState else { return .none }
    let toChildAction = storage.toChildAction
    return effect.map { toChildAction.embed($0) }.inScope(toChildState)
  }

  @usableFromInline
  func reduceCase(
    _ toChildState: AnyCasePath<ParentState, Child.State>,
    location: SourceLocation,
    into state: inout ParentState,
    action childAction: Child.Action
  ) -> Effect<ParentAction> {
    guard var childState = toChildState.extract(from: state) else {
      location.report(
        Diagnostics.scopeActionForOtherCase(
          action: childAction, state: state, childState: Child.State.self))
      return .none
    }
    let effect = storage.child.reduce(into: &childState, action: childAction)
    state = toChildState.embed(childState)
    if effect.isNone { return .none }
    let toChildAction = storage.toChildAction
    return effect.map { toChildAction.embed($0) }
      .namespaced(caseNamespace(toChildState, state: state, childState: childState))
  }

  /// The namespace of the case instance: the parent's case, and the payload's `id`.
  private func caseNamespace(
    _ toChildState: AnyCasePath<ParentState, Child.State>,
    state: ParentState, childState: Child.State
  ) -> AnyHashableSendable {
    AnyHashableSendable(
      ChildNamespaceComponent(
        CaseScopeLocator(
          toChildState: UncheckedSendable(toChildState), tag: EnumTag.of(state),
          payloadID: ChildIdentity.identifiableID(of: childState).map { UncheckedSendable($0) })))
  }
}
