import CasePathsCore

// Owns the hook that lets `ifLet` and `forEach` find the reducer of an enum destination or path
// from its state's type alone: TCA's `@Reducer enum Destination`, which the `.ifLet(_:action:)`
// and `.forEach(_:action:)` without a child closure run.

/// A reducer of an enum of features, whose state names it: what lets `ifLet` and `forEach` run
/// it without a child closure, as TCA's `@Reducer enum Destination` does.
///
/// Its cases' reducers are built without an instance, in a static ``body``, so that an enum of
/// reducers can conform. Its `State` conforms to ``CaseReducerState``, naming this reducer.
///
/// ```swift
/// enum Destination: CaseReducer {
///   @CasePathable
///   enum State: Equatable, CaseReducerState {
///     typealias StateReducer = Destination
///     case addContact(AddContactFeature.State)
///     case alert(AlertState<ContactsFeature.Action.Alert>)
///   }
///   @CasePathable
///   enum Action: Equatable {
///     case addContact(AddContactFeature.Action)
///     case alert(ContactsFeature.Action.Alert)
///   }
///   static var body: some Reducer<State, Action> {
///     Scope(state: \.addContact, action: \.addContact) { AddContactFeature() }
///   }
/// }
///
/// // the parent:
/// Reduce { state, action in … }
///   .ifLet(\.$destination, action: \.destination)
/// ```
public protocol CaseReducer<State, Action>: Reducer
where
  State: CaseReducerState, State.StateReducer == Self, Body: Reducer, Body.State == State,
  Body.Action == Action
{
  /// The state: an enum of the cases' states.
  associatedtype State
  /// The action: an enum of the cases' actions.
  associatedtype Action
  /// The reducer that runs the cases.
  associatedtype Body

  /// The reducer that runs the cases, usually a `Scope` per case that has a reducer.
  @ReducerBuilder<State, Action>
  static var body: Body { get }
}

extension CaseReducer {
  /// The static ``body``: an instance runs the same reducer.
  public var body: Body { Self.body }
}

/// The state of a ``CaseReducer``: it names the reducer that runs it, so that
/// `ifLet(\.$destination, action: \.destination)` needs no child closure.
public protocol CaseReducerState {
  /// The reducer of this state.
  associatedtype StateReducer: CaseReducer where StateReducer.State == Self
}

extension Reducer {
  /// Runs an enum destination's reducer while it is presented, found from its state's type:
  /// TCA's `.ifLet(\.$destination, action: \.destination)` for a `@Reducer enum Destination`.
  /// See ``CaseReducer``.
  @inlinable
  public func ifLet<ChildState: CaseReducerState, ChildAction>(
    _ toPresentation: WritableKeyPath<State, PresentationState<ChildState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<ChildAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, ChildState.StateReducer.Body>
  where ChildState.StateReducer.Action == ChildAction {
    ifLet(
      toPresentation, action: AnyCasePath(toPresentationAction),
      then: { ChildState.StateReducer.body },
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Runs an enum child's reducer while its optional state is present, found from its state's
  /// type. See ``CaseReducer``.
  @inlinable
  public func ifLet<ChildState: CaseReducerState, ChildAction>(
    _ toChildState: WritableKeyPath<State, ChildState?>,
    action toChildAction: CaseKeyPath<Action, ChildAction>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, ChildState.StateReducer.Body>
  where ChildState.StateReducer.Action == ChildAction {
    ifLet(
      toChildState, action: AnyCasePath(toChildAction), then: { ChildState.StateReducer.body },
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Runs an enum path's reducer on each element of a navigation stack, found from its state's
  /// type: TCA's `.forEach(\.path, action: \.path)` for a `@Reducer enum Path`. See
  /// ``CaseReducer``.
  @inlinable
  public func forEach<ElementState: CaseReducerState, ElementAction>(
    _ toStack: WritableKeyPath<State, StackState<ElementState>>,
    action toStackAction: CaseKeyPath<Action, StackAction<ElementState, ElementAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _StackReducer<Self, ElementState.StateReducer.Body>
  where ElementState.StateReducer.Action == ElementAction {
    forEach(
      toStack, action: AnyCasePath(toStackAction), element: { ElementState.StateReducer.body },
      fileID: fileID, filePath: filePath, line: line, column: column)
  }
}
