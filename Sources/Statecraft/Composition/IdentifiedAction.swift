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
