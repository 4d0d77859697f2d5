/// A button of an alert or a confirmation dialog, as a value: its label, its role and the
/// action it sends.
///
/// ```swift
/// ButtonState(role: .destructive, action: .confirmDelete, label: "Delete")
/// ButtonState(role: .cancel, label: "Cancel")  // only dismisses
/// ```
public struct ButtonState<Action> {
  /// What a button means, for the way it is drawn.
  public enum Role: Hashable, Sendable {
    /// Dismisses without doing anything.
    case cancel
    /// Deletes or removes something.
    case destructive
  }

  /// The button's role, or nil for a plain button.
  public var role: Role?
  /// The action the button sends; nil for a button that only dismisses.
  public var action: Action?
  /// The button's text.
  public var label: String

  /// A button with `label` that sends `action` (or only dismisses, when it is nil).
  public init(role: Role? = nil, action: Action? = nil, label: String) {
    self.role = role
    self.action = action
    self.label = label
  }
}

extension ButtonState: Equatable where Action: Equatable {}
extension ButtonState: Hashable where Action: Hashable {}

extension ButtonState: Sendable where Action: Sendable {}

extension PresentationAction {
  /// What pressing `button` of a presented alert or dialog sends: its action (which also
  /// dismisses the alert), or `.dismiss` for a button without one.
  ///
  /// ```swift
  /// store.send(.alert(.press(button)))
  /// ```
  public static func press(_ button: ButtonState<Action>) -> Self {
    button.action.map { .presented($0) } ?? .dismiss
  }
}
