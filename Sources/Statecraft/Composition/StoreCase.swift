// Owns `switch store.case { … }`: a store of an enum of features, turned into an enum of child
// stores (one per case that runs a reducer) and values (the other cases), for a view to switch on.
// `@Reducer enum` in StatecraftMacros writes the conformance; it can also be written by hand.

/// A ``CaseReducer`` whose store a view can switch on, case by case: TCA's
/// `switch store.case { … }`.
///
/// `CaseScope` has a case per case of ``CaseReducer/State``: a child store for a case that runs
/// a reducer, the value itself for the others. `@Reducer enum` (StatecraftMacros) writes it.
/// By hand:
///
/// ```swift
/// extension Destination: CaseScopable {
///   enum CaseScope {
///     case addContact(StoreOf<AddContactFeature>)
///     case alert(AlertState<ContactsFeature.Action.Alert>)
///   }
///   static func scope(_ store: Store<State, Action>) -> CaseScope {
///     if let child = store.scope(state: \.addContact, action: \.addContact) {
///       return .addContact(child)
///     }
///     if let alert = store.scope(state: \.alert).state { return .alert(alert) }
///     fatalError("no case of \(State.self) matched")
///   }
/// }
///
/// // a view:
/// switch store.case {
/// case let .addContact(store): AddContactView(store: store)
/// case let .alert(alert): AlertView(alert)
/// }
/// ```
///
/// Write `scope` with a scope per case, as above, rather than a `switch` on `store.state`: each
/// scope observes only whether its case is the one present, so the view that switches is drawn
/// again when the case changes, not on every change inside it.
public protocol CaseScopable: CaseReducer {
  /// An enum with a case per case of the state: a child store, or the case's values.
  associatedtype CaseScope

  /// The store's state as a ``CaseScope``: the child store of the case that is present.
  @MainActor
  static func scope(_ store: Store<State, Action>) -> CaseScope
}

extension Store
where
  State: CaseReducerState, State.StateReducer: CaseScopable,
  State.StateReducer.Action == Action
{
  /// This store as an enum of child stores and values, one case per case of its state, for a
  /// view to switch on.
  ///
  /// ```swift
  /// switch store.case {
  /// case let .add(store): SyncUpFormView(store: store)
  /// case let .detail(store): SyncUpDetailView(store: store)
  /// case let .meeting(meeting, syncUp: syncUp): MeetingView(meeting: meeting, syncUp: syncUp)
  /// }
  /// ```
  ///
  /// Reading it observes which case is present (and the values of a case that holds no
  /// reducer), not what changes inside a child's state. See ``CaseScopable``.
  ///
  /// A presented store ends when its child is dismissed, and the next presentation is a new
  /// store: read `case` on the store the parent scopes now (the one `.sheet(item:)` or
  /// `navigationDestination(item:)` passes), not on one kept from an earlier presentation,
  /// which sees no later case.
  public var `case`: State.StateReducer.CaseScope {
    State.StateReducer.scope(self)
  }
}
