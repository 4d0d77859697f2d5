import CasePathsCore

/// The action of a presented child: one of its own actions, or its dismissal.
///
/// ```swift
/// enum Action {
///   case detail(PresentationAction<Detail.Action>)
/// }
/// store.send(.detail(.presented(.save)))
/// store.send(.detail(.dismiss))  // the sheet was swiped away
/// ```
///
/// It is `CasePathable` (written by hand, no macro), so case key paths reach through it:
/// `\.detail.presented.save`, `\.detail.dismiss`, or TCA's `\.detail.save`, which skips
/// `presented` when the child's action is `CasePathable`:
///
/// ```swift
/// await store.send(\.destination.alert.confirmDeletion, id)
/// await store.receive(\.destination.addContact.delegate.saveContact)
/// ```
///
/// The child's action is boxed (an `indirect` case), so that a feature may present itself:
/// `case child(PresentationAction<Action>)` in its own `Action`.
public enum PresentationAction<Action> {
  /// An action of the presented child.
  indirect case presented(Action)
  /// Ends the presentation: the parent sees this action while the child is still presented,
  /// then the child's state is set to nil.
  case dismiss
}

extension PresentationAction: Equatable where Action: Equatable {}
extension PresentationAction: Hashable where Action: Hashable {}
extension PresentationAction: Sendable where Action: Sendable {}

extension PresentationAction: CasePathable {
  /// The case paths of a presentation action.
  @dynamicMemberLookup
  public struct AllCasePaths: Sendable {
    /// The child's actions.
    public var presented: AnyCasePath<PresentationAction, Action> {
      AnyCasePath(
        embed: { .presented($0) },
        extract: {
          guard case .presented(let action) = $0 else { return nil }
          return action
        })
    }

    /// The dismissal.
    public var dismiss: AnyCasePath<PresentationAction, Void> {
      AnyCasePath(
        embed: { .dismiss },
        extract: {
          guard case .dismiss = $0 else { return nil }
          return ()
        })
    }

    /// A case of the child's action, reached without `presented`: `\.destination.alert` is
    /// `\.destination.presented.alert`. It extracts nothing from `.dismiss`.
    public subscript<Member>(
      dynamicMember keyPath: KeyPath<Action.AllCasePaths, AnyCasePath<Action, Member>>
    ) -> AnyCasePath<PresentationAction, Member> where Action: CasePathable {
      self[presented: Action.allCasePaths[keyPath: keyPath]]
    }

    /// A case of the child's action, through `presented`.
    // NB: outside the `Action: CasePathable` constraint, so that the closures capture no
    // conformance of `Action`.
    subscript<Member>(
      presented casePath: AnyCasePath<Action, Member>
    ) -> AnyCasePath<PresentationAction, Member> {
      AnyCasePath(
        embed: { .presented(casePath.embed($0)) },
        extract: {
          guard case .presented(let action) = $0 else { return nil }
          return casePath.extract(from: action)
        })
    }

    /// One case of an enum child as a presentation: its actions presented, and the dismissal.
    subscript<Member>(
      presentationOf casePath: AnyCasePath<Action, Member>
    ) -> AnyCasePath<PresentationAction, PresentationAction<Member>> {
      AnyCasePath(
        embed: {
          switch $0 {
          case .dismiss: .dismiss
          case .presented(let member): .presented(casePath.embed(member))
          }
        },
        extract: {
          switch $0 {
          case .dismiss: .dismiss
          case .presented(let action): casePath.extract(from: action).map { .presented($0) }
          }
        })
    }
  }

  /// The case paths of a presentation action.
  public static var allCasePaths: AllCasePaths { AllCasePaths() }
}
