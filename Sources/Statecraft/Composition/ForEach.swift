import CasePathsCore
import ConcurrencyExtras
import IdentifiedCollections
import IssueReporting
import OrderedCollections

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
  /// of their own (two rows using the same id don't cancel each other) and are all cancelled
  /// when the parent removes the element. (Removal is seen around this reducer's parent: a row
  /// removed by a reducer further up keeps its effects until they end or are cancelled.) An
  /// action for an id that is not in the collection is reported as an issue.
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
    // NB: an element action reads and writes the collection in one access. When `toElements` is
    // a path of stored properties (the usual case), the collection is reached through its offset
    // in the state, which costs a pointer addition instead of a projection by the key-path
    // runtime (each of those costs about as much as the element's reducer).
    if let offset = MemoryLayout<Parent.State>.offset(of: toElements) {
      return withUnsafeMutablePointer(to: &state) { state in
        let elements = (UnsafeMutableRawPointer(state) + offset)
          .assumingMemoryBound(to: IdentifiedArray<ID, Element.State>.self)
        let elementEffect: Effect<Parent.Action>
        let idsBefore: OrderedSet<ID>
        if case .element(let id, let elementAction)? = toElementAction.extract(from: action) {
          (elementEffect, idsBefore) = reduceElement(
            id: id, action: elementAction, in: &elements.pointee)
        } else {
          elementEffect = .none
          idsBefore = elements.pointee.ids
        }
        let parentEffect = parent.reduce(into: &state.pointee, action: action)
        return combine(
          elementEffect, parentEffect, idsBefore: idsBefore, idsAfter: elements.pointee.ids)
      }
    }
    let elementEffect: Effect<Parent.Action>
    let idsBefore: OrderedSet<ID>
    if case .element(let id, let elementAction)? = toElementAction.extract(from: action) {
      (elementEffect, idsBefore) = reduceElement(
        id: id, action: elementAction, in: &state[keyPath: toElements])
    } else {
      elementEffect = .none
      idsBefore = state[keyPath: toElements].ids
    }
    let parentEffect = parent.reduce(into: &state, action: action)
    return combine(
      elementEffect, parentEffect, idsBefore: idsBefore, idsAfter: state[keyPath: toElements].ids)
  }

  /// The element's and the parent's effects, and the cancellation of the effects of the elements
  /// the parent removed.
  @inlinable
  func combine(
    _ elementEffect: Effect<Parent.Action>, _ parentEffect: Effect<Parent.Action>,
    idsBefore: OrderedSet<ID>, idsAfter: OrderedSet<ID>
  ) -> Effect<Parent.Action> {
    if idsBefore != idsAfter {
      let removed = idsBefore.subtracting(idsAfter)
      if !removed.isEmpty {
        return .merge(
          [elementEffect, parentEffect] + removed.map { .cancelNamespace(namespace(for: $0)) })
      }
    }
    if elementEffect.isNone { return parentEffect }
    if parentEffect.isNone { return elementEffect }
    return .merge(elementEffect, parentEffect)
  }

  @usableFromInline
  func reportMissingElement(action: Element.Action, id: ID) {
    location.report(
      Diagnostics.forEachActionForMissingElement(
        action: action, id: id, statePath: toElements, parent: Parent.self))
  }

  @usableFromInline
  func namespace(for id: ID) -> AnyHashableSendable {
    AnyHashableSendable(
      ChildNamespace(
        path: AnyHashableSendable(UncheckedSendable(toElements)), id: AnyHashableSendable(id)))
  }

  /// Runs the element reducer on the element `id` of `elements`; returns its effect and the ids
  /// of `elements` after it ran.
  @inlinable
  func reduceElement(
    id: ID, action elementAction: Element.Action,
    in elements: inout IdentifiedArray<ID, Element.State>
  ) -> (Effect<Parent.Action>, OrderedSet<ID>) {
    guard let index = elements.index(id: id) else {
      reportMissingElement(action: elementAction, id: id)
      return (.none, elements.ids)
    }
    let effect: Effect<Element.Action>
    if let context = ReduceContext.current {
      // NB: lets the row indexes of the store tree see which row this writes (RowIndex.swift).
      let written = context.willWrite(elements, id: id)
      effect = element.reduce(into: &elements[index], action: elementAction)
      context.didWrite(elements, to: written)
    } else {
      effect = element.reduce(into: &elements[index], action: elementAction)
    }
    if effect.isNone { return (.none, elements.ids) }
    let toElementAction = self.toElementAction
    return (
      effect.map { toElementAction.embed(.element(id: id, action: $0)) }
        .namespaced(namespace(for: id)),
      elements.ids
    )
  }
}
