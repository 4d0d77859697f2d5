import CasePathsCore

/// An action for one element of an identified collection: the `forEach` child action.
///
/// ```swift
/// enum Action {
///   case rows(IdentifiedActionOf<Row>)
/// }
/// store.send(.rows(.element(id: row.id, action: .toggle)))
/// ```
public enum IdentifiedAction<ID: Hashable & Sendable, Action> {
  /// `action` for the element whose id is `id`.
  case element(id: ID, action: Action)

  /// The id of the element this action is for.
  public var id: ID {
    switch self {
    case .element(let id, _): return id
    }
  }

  /// The element's action.
  public var action: Action {
    switch self {
    case .element(_, let action): return action
    }
  }
}

extension IdentifiedAction: Equatable where Action: Equatable {}
extension IdentifiedAction: Hashable where Action: Hashable {}
extension IdentifiedAction: Sendable where Action: Sendable {}

/// The `forEach` action of a row feature whose state is `Identifiable`.
public typealias IdentifiedActionOf<R: Reducer> = IdentifiedAction<R.State.ID, R.Action>
where R.State: Identifiable, R.State.ID: Sendable

extension IdentifiedAction: CasePathable {
  /// The case paths of an identified action: TCA's `\.rows[id: id].toggle` and
  /// `\.rows.element`.
  ///
  /// ```swift
  /// await store.send(\.todos[id: todo.id].binding.isComplete, true) {
  ///   $0.todos[id: todo.id]?.isComplete = true
  /// }
  /// ```
  public struct AllCasePaths: Sendable {
    /// The action of any element, with its id.
    public var element: AnyCasePath<IdentifiedAction, (id: ID, action: Action)> {
      AnyCasePath(
        embed: { .element(id: $0.id, action: $0.action) },
        extract: {
          guard case .element(let id, let action) = $0 else { return nil }
          return (id, action)
        })
    }

    /// The actions of the element `id`.
    public subscript(id id: ID) -> AnyCasePath<IdentifiedAction, Action> {
      AnyCasePath(
        embed: { .element(id: id, action: $0) },
        extract: {
          guard case .element(id, let action) = $0 else { return nil }
          return action
        })
    }
  }

  /// The case paths of an identified action.
  public static var allCasePaths: AllCasePaths { AllCasePaths() }
}

extension Case {
  /// The actions of the element `id` of an identified collection: `\.rows[id: id].toggle`.
  public subscript<ElementID: Hashable & Sendable, ElementAction>(
    id id: ElementID
  ) -> Case<ElementAction> where Value == IdentifiedAction<ElementID, ElementAction> {
    appending(self, Value.allCasePaths[id: id])
  }
}
