import CasePathsCore

/// An action of a navigation stack: an element's action, a pop, or a push.
///
/// ```swift
/// enum Action {
///   case path(StackAction<Path.State, Path.Action>)
/// }
/// store.send(.path(.element(id: id, action: .detail(.save))))
/// store.send(.path(.popFrom(id: id)))  // back
/// ```
///
/// It is `CasePathable` (written by hand, no macro): `\.path[id: id].detail.save`,
/// `\.path.popFrom`, `\.path.push`.
public enum StackAction<State, Action> {
  /// `action` for the element `id`.
  case element(id: StackElementID, action: Action)
  /// Pops the element `id` and every element above it. The parent sees this action while the
  /// elements are still on the stack.
  case popFrom(id: StackElementID)
  /// Pushes `state` with `id`, which must be greater than every id the stack has held (a view
  /// makes one with `StackElementID()`).
  case push(id: StackElementID, state: State)
}

/// The stack action of a feature: `StackActionOf<Path>` is
/// `StackAction<Path.State, Path.Action>`.
public typealias StackActionOf<R: Reducer> = StackAction<R.State, R.Action>

extension StackAction: Equatable where State: Equatable, Action: Equatable {}
extension StackAction: Hashable where State: Hashable, Action: Hashable {}
extension StackAction: Sendable where State: Sendable, Action: Sendable {}

extension StackAction: CasePathable {
  /// The case paths of a stack action.
  public struct AllCasePaths: Sendable {
    /// The action of any element, with its id.
    public var element: AnyCasePath<StackAction, (id: StackElementID, action: Action)> {
      AnyCasePath(
        embed: { .element(id: $0.id, action: $0.action) },
        extract: {
          guard case .element(let id, let action) = $0 else { return nil }
          return (id, action)
        })
    }

    /// The pops.
    public var popFrom: AnyCasePath<StackAction, StackElementID> {
      AnyCasePath(
        embed: { .popFrom(id: $0) },
        extract: {
          guard case .popFrom(let id) = $0 else { return nil }
          return id
        })
    }

    /// The pushes.
    public var push: AnyCasePath<StackAction, (id: StackElementID, state: State)> {
      AnyCasePath(
        embed: { .push(id: $0.id, state: $0.state) },
        extract: {
          guard case .push(let id, let state) = $0 else { return nil }
          return (id, state)
        })
    }

    /// The actions of the element `id`.
    public subscript(id id: StackElementID) -> AnyCasePath<StackAction, Action> {
      AnyCasePath(
        embed: { .element(id: id, action: $0) },
        extract: {
          guard case .element(id, let action) = $0 else { return nil }
          return action
        })
    }
  }

  /// The case paths of a stack action.
  public static var allCasePaths: AllCasePaths { AllCasePaths() }
}

extension Case {
  /// The actions of the stack element `id`: `\.path[id: id].detail.save`.
  public subscript<ElementState, ElementAction>(
    id id: StackElementID
  ) -> Case<ElementAction> where Value == StackAction<ElementState, ElementAction> {
    appending(self, Value.allCasePaths[id: id])
  }
}

/// `base` followed by `casePath`: how the navigation case paths reach through a stack or a
/// presentation (`\.path[id: id]`, `\.destination.addContact`).
// NB: a function of its own, with no constraint on its generic parameters: closures made where a
// parameter must be `CasePathable` would capture its metatype, which is not known to be Sendable.
func appending<Root, Member>(
  _ base: Case<Root>, _ casePath: AnyCasePath<Root, Member>
) -> Case<Member> {
  Case<Member>(
    embed: { base._embed(casePath.embed($0)) },
    extract: { base._extract(from: $0).flatMap(casePath.extract(from:)) })
}
