import CasePathsCore
import ConcurrencyExtras

extension Reducer {
  /// Runs an element reducer on each element of a navigation stack: TCA's
  /// `forEach(\.path, action: \.path)`.
  ///
  /// ```swift
  /// var body: some Reducer<State, Action> {
  ///   Reduce { state, action in
  ///     switch action {
  ///     case .showDetail: state.path.append(Detail.State()); return .none
  ///     case .path: return .none
  ///     }
  ///   }
  ///   .forEach(\.path, action: \.path) { Detail() }
  /// }
  /// ```
  ///
  /// - `.element(id:action:)` runs the element reducer, then the parent. An action for an id
  ///   that is not on the stack (popped, or never pushed) is reported as an issue.
  /// - `.popFrom(id:)` runs the parent (it still sees the elements), then pops.
  /// - `.push(id:state:)` pushes, then runs the parent; a push with an id the stack has already
  ///   used is reported and ignored.
  /// - Each element's effects run in a namespace of its id: when it is popped (by any reducer,
  ///   at any depth) they are cancelled and what they would still send is dropped. Ids are never
  ///   reused, so nothing meant for a popped element reaches a newer one.
  /// - An element can pop itself with `Effect.dismiss()` or a ``DismissEffect``.
  @inlinable
  public func forEach<ElementState, ElementAction, Element: Reducer<ElementState, ElementAction>>(
    _ toStack: WritableKeyPath<State, StackState<ElementState>>,
    action toStackAction: AnyCasePath<Action, StackAction<ElementState, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _StackReducer<Self, Element> {
    _StackReducer(
      parent: self, element: element(), toStack: toStack, toStackAction: toStackAction,
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Runs an element reducer on each element of a navigation stack.
  @inlinable
  public func forEach<ElementState, ElementAction, Element: Reducer<ElementState, ElementAction>>(
    _ toStack: WritableKeyPath<State, StackState<ElementState>>,
    action toStackAction: CaseKeyPath<Action, StackAction<ElementState, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _StackReducer<Self, Element> {
    forEach(
      toStack, action: AnyCasePath(toStackAction), element: element,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

/// The reducer built by `forEach` over a ``StackState``.
public struct _StackReducer<Parent: Reducer, Element: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let element: Element
  @usableFromInline let toStack: WritableKeyPath<Parent.State, StackState<Element.State>>
  @usableFromInline let toStackAction:
    AnyCasePath<Parent.Action, StackAction<Element.State, Element.Action>>
  @usableFromInline let location: SourceLocation

  @usableFromInline
  init(
    parent: Parent,
    element: Element,
    toStack: WritableKeyPath<Parent.State, StackState<Element.State>>,
    toStackAction: AnyCasePath<Parent.Action, StackAction<Element.State, Element.Action>>,
    location: SourceLocation
  ) {
    self.parent = parent
    self.element = element
    self.toStack = toStack
    self.toStackAction = toStackAction
    self.location = location
  }

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    // NB: the effects of an element that any reducer pops are cancelled by the root after the
    // action (see ChildNamespaceComponent.swift): this reducer only names them.
    guard let stackAction = toStackAction.extract(from: action) else {
      return parent.reduce(into: &state, action: action)
    }
    switch stackAction {
    case .element(let id, let elementAction):
      let elementEffect = reduceElement(id: id, action: elementAction, into: &state)
      return .merging(elementEffect, parent.reduce(into: &state, action: action))
    case .popFrom(let id):
      if state[keyPath: toStack].elements[id] == nil {
        location.report(
          Diagnostics.stackActionForMissingElement(
            action: action, id: id, statePath: toStack, parent: Parent.self))
        return parent.reduce(into: &state, action: action)
      }
      let parentEffect = parent.reduce(into: &state, action: action)
      state[keyPath: toStack].pop(from: id)
      return parentEffect
    case .push(let id, let elementState):
      let lastID = state[keyPath: toStack].lastID
      if id <= lastID {
        location.report(
          Diagnostics.stackPushWithStaleID(
            id: id, lastID: lastID, statePath: toStack, parent: Parent.self))
        return parent.reduce(into: &state, action: action)
      }
      state[keyPath: toStack].append(elementState, id: id)
      return parent.reduce(into: &state, action: action)
    }
  }

  private func reduceElement(
    id: StackElementID, action elementAction: Element.Action, into state: inout Parent.State
  ) -> Effect<Parent.Action> {
    guard let index = state[keyPath: toStack].elements.index(forKey: id) else {
      location.report(
        Diagnostics.stackActionForMissingElement(
          action: toStackAction.embed(.element(id: id, action: elementAction)), id: id,
          statePath: toStack, parent: Parent.self))
      return .none
    }
    let effect = element.reduce(
      into: &state[keyPath: toStack].elements.values[index], action: elementAction)
    if effect.isNone { return .none }
    let toStackAction = self.toStackAction
    return effect.map { toStackAction.embed(.element(id: id, action: $0)) }
      .withDismissal { send in await send(toStackAction.embed(.popFrom(id: id))) }
      .namespaced(namespace(for: id))
  }

  private func namespace(for id: StackElementID) -> AnyHashableSendable {
    AnyHashableSendable(
      ChildNamespaceComponent(
        StackElementLocator(toStack: UncheckedSendable(toStack), elementID: id)))
  }
}
