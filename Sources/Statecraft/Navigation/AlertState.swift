/// An alert as a value: a title, a message and buttons, presented through a
/// ``PresentationState`` like any child. Being `Equatable`, a test asserts it.
///
/// ```swift
/// struct State: Equatable { @Presents var alert: AlertState<Action.Alert>? }
/// enum Action { case deleteTapped, alert(PresentationAction<Alert>); enum Alert { case confirm } }
///
/// case .deleteTapped:
///   state.alert = AlertState(
///     title: "Delete this todo?",
///     buttons: [
///       ButtonState(role: .destructive, action: .confirm, label: "Delete"),
///       ButtonState(role: .cancel, label: "Cancel"),
///     ])
/// case .alert(.presented(.confirm)):
///   // delete; the alert is already dismissed
/// ```
///
/// Run it with `ifLet(\.$alert, action: \.alert)`: a button's action arrives as
/// `.alert(.presented(action))` and dismisses the alert; a button without an action sends
/// `.alert(.dismiss)`.
public struct AlertState<Action>: _EphemeralState {
  /// The alert's title.
  public var title: String
  /// The text under the title.
  public var message: String?
  /// The buttons, in order. An alert without buttons shows one that dismisses it.
  public var buttons: [ButtonState<Action>]

  /// An alert with a title, an optional message, and buttons.
  public init(title: String, message: String? = nil, buttons: [ButtonState<Action>] = []) {
    self.title = title
    self.message = message
    self.buttons = buttons
  }
}

/// A confirmation dialog (an action sheet) as a value: a title, a message and buttons,
/// presented through a ``PresentationState`` like an ``AlertState``.
///
/// ```swift
/// state.dialog = ConfirmationDialogState(
///   title: "Delete “Buy milk”?", titleVisibility: .visible,
///   buttons: [
///     ButtonState(role: .destructive, action: .confirmDelete, label: "Delete"),
///     ButtonState(role: .cancel, label: "Keep"),
///   ])
/// ```
public struct ConfirmationDialogState<Action>: _EphemeralState {
  /// Whether the title is shown.
  public enum TitleVisibility: Hashable, Sendable {
    /// As the platform decides.
    case automatic
    /// Always.
    case visible
    /// Never.
    case hidden
  }

  /// The dialog's title.
  public var title: String
  /// Whether the title is shown.
  public var titleVisibility: TitleVisibility
  /// The text under the title.
  public var message: String?
  /// The buttons, in order.
  public var buttons: [ButtonState<Action>]

  /// A dialog with a title, an optional message, and buttons.
  public init(
    title: String, titleVisibility: TitleVisibility = .automatic, message: String? = nil,
    buttons: [ButtonState<Action>] = []
  ) {
    self.title = title
    self.titleVisibility = titleVisibility
    self.message = message
    self.buttons = buttons
  }
}

extension AlertState {
  public static var _buttonActionType: Any.Type { Action.self }
}

extension ConfirmationDialogState {
  public static var _buttonActionType: Any.Type { Action.self }
}

extension AlertState: Equatable where Action: Equatable {}
extension AlertState: Hashable where Action: Hashable {}
extension AlertState: Sendable where Action: Sendable {}

extension ConfirmationDialogState: Equatable where Action: Equatable {}
extension ConfirmationDialogState: Hashable where Action: Hashable {}
extension ConfirmationDialogState: Sendable where Action: Sendable {}
