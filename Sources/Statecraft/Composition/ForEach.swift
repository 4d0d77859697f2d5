import CasePathsCore
import ConcurrencyExtras
import IdentifiedCollections
import IssueReporting

extension Reducer {
  /// Runs an element reducer on each element of an identified collection, for the actions
  /// addressed to that element.
  ///
  /// ```swift
  /// var body: some Reducer<State, Action> {
  ///   Reduce { state, action in
  ///     switch action {
  ///     case .addRow: state.rows.append(Row.State(id: UUID())); return .none
  ///     case .rows: return .none
  ///     }
  ///   }
  ///   .forEach(\.rows, action: \.rows) { Row() }
  /// }
  /// ```
  ///
  /// The element runs before the parent. Each element's effects run in a cancellation namespace
  /// of their own (two rows using the same id don't cancel each other) and are all cancelled when
  /// the element leaves the collection, whichever reducer removes it and however far up (a
  /// grandparent that clears the collection included): the actions they would still send are
  /// dropped, never reported. An action sent for an id that is not in the collection is reported
  /// as an issue.
  @inlinable
  public func forEach<
    ID: Hashable & Sendable, ElementState, ElementAction,
    Element: Reducer<ElementState, ElementAction>
  >(
    _ toElements: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: AnyCasePath<Action, IdentifiedAction<ID, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _ForEachReducer<Self, ID, Element> {
    _ForEachReducer(
      parent: self, element: element(), toElements: toElements,
      toElementAction: toElementAction,
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Runs an element reducer on each element of an identified collection, for the actions
  /// addressed to that element.
  @inlinable
  public func forEach<
    ID: Hashable & Sendable, ElementState, ElementAction,
    Element: Reducer<ElementState, ElementAction>
  >(
    _ toElements: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: CaseKeyPath<Action, IdentifiedAction<ID, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _ForEachReducer<Self, ID, Element> {
    forEach(
      toElements, action: AnyCasePath(toElementAction), element: element,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

/// The reducer built by `forEach`.
public struct _ForEachReducer<Parent: Reducer, ID: Hashable & Sendable, Element: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let element: Element
  @usableFromInline let toElements:
    WritableKeyPath<Parent.State, IdentifiedArray<ID, Element.State>>
  @usableFromInline let toElementAction:
    AnyCasePath<Parent.Action, IdentifiedAction<ID, Element.Action>>
  @usableFromInline let location: SourceLocation

  @usableFromInline
  init(
    parent: Parent,
    element: Element,
    toElements: WritableKeyPath<Parent.State, IdentifiedArray<ID, Element.State>>,
    toElementAction: AnyCasePath<Parent.Action, IdentifiedAction<ID, Element.Action>>,
    location: SourceLocation
  ) {
    self.parent = parent
    self.element = element
    self.toElements = toElements
    self.toElementAction = toElementAction
    self.location = location
  }

  @inlinable
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    // NB: the effects of an element that any reducer removes are cancelled by the root after the
    // action (see ChildNamespaceComponent.swift).
    guard case .element(let id, let elementAction)? = toElementAction.extract(from: action) else {
      return parent.reduce(into: &state, action: action)
    }
    let elementEffect = reduceElement(id: id, action: elementAction, inElementsOf: &state)
    return .merging(elementEffect, parent.reduce(into: &state, action: action))
  }

  /// Runs the element reducer on the element `id` of the collection at `toElements` of `state`,
  /// in one access; returns its effect.
  ///
  /// NB: this is the fast path of an element action. When `toElements` is a path of stored
  /// properties (the usual case: `\.rows`), the collection is reached through its offset in the
  /// state (`elementsOffset`): a pointer addition, with no closure (a closure here would capture,
  /// and copy, this reducer). Otherwise (a computed property, a subscript) it is reached through
  /// the key-path runtime, whose projection costs about as much as a row's reducer. Both write the
  /// row in place when the collection is not shared.
  /// `ForEachTests.elementActionsWriteInPlaceThroughTheOffsetOrTheKeyPath` pins both paths.
  @inlinable
  func reduceElement(
    id: ID, action elementAction: Element.Action, inElementsOf state: inout Parent.State
  ) -> Effect<Parent.Action> {
    guard let offset = elementsOffset else {
      return reduceElement(id: id, action: elementAction, in: &state[keyPath: toElements])
    }
    return reduceElement(id: id, action: elementAction, at: &state, offset: offset)
  }

  /// Reaches the collection at `offset` in the state at `state`, and runs the element reducer on
  /// it.
  ///
  /// NB: a function of its own because an `inout` becomes a pointer, with no closure, only as an
  /// argument (`&state`): `withUnsafeMutablePointer(to:)` would take a closure that captures this
  /// reducer.
  @inlinable
  func reduceElement(
    id: ID, action elementAction: Element.Action, at state: UnsafeMutablePointer<Parent.State>,
    offset: Int
  ) -> Effect<Parent.Action> {
    reduceElement(
      id: id, action: elementAction,
      in: &(UnsafeMutableRawPointer(state) + offset)
        .assumingMemoryBound(to: IdentifiedArray<ID, Element.State>.self).pointee)
  }

  /// The offset of the collection in the state when `toElements` is a path of stored properties:
  /// the fast path of ``reduceElement(id:action:inElementsOf:)``.
  @inlinable
  var elementsOffset: Int? { MemoryLayout<Parent.State>.offset(of: toElements) }

  @usableFromInline
  func reportMissingElement(action: Element.Action, id: ID) {
    location.report(
      Diagnostics.forEachActionForMissingElement(
        action: action, id: id, statePath: toElements, parent: Parent.self))
  }

  @usableFromInline
  func namespace(for id: ID) -> AnyHashableSendable {
    AnyHashableSendable(
      ChildNamespaceComponent(
        ForEachElementLocator(toElements: UncheckedSendable(toElements), elementID: id)))
  }

  /// Runs the element reducer on the element `id` of `elements`; returns its effect.
  @inlinable
  func reduceElement(
    id: ID, action elementAction: Element.Action,
    in elements: inout IdentifiedArray<ID, Element.State>
  ) -> Effect<Parent.Action> {
    guard let index = elements.index(id: id) else {
      reportMissingElement(action: elementAction, id: id)
      return .none
    }
    // NB: lets the row indexes of the store tree see which row this writes (see
    // Observation/Rows/RowObservation.swift).
    let effect = RowObservation.write(row: id, of: &elements) {
      element.reduce(into: &$0[index], action: elementAction)
    }
    if effect.isNone { return .none }
    let toElementAction = self.toElementAction
    return effect.map { toElementAction.embed(.element(id: id, action: $0)) }
      .namespaced(namespace(for: id))
  }
}
