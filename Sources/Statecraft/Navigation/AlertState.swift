/// An alert as a value: a title, a message and buttons, presented through a
/// ``PresentationState`` like any child. Being `Equatable`, a test asserts it.
///
/// TCA's spelling, with ``TextState`` and builders:
///
/// ```swift
/// struct State: Equatable { @Presents var alert: AlertState<Action.Alert>? }
/// enum Action { case deleteTapped, alert(PresentationAction<Alert>); enum Alert { case confirm } }
///
/// case .deleteTapped:
///   state.alert = AlertState {
///     TextState("Delete this todo?")
///   } actions: {
///     ButtonState(role: .destructive, action: .confirm) { TextState("Delete") }
///     ButtonState(role: .cancel) { TextState("Cancel") }
///   } message: {
///     TextState("This can't be undone.")
///   }
/// case .alert(.presented(.confirm)):
///   // delete; the alert is already dismissed
/// ```
///
/// or with strings, shown as they are:
///
/// ```swift
/// state.alert = AlertState(
///     title: "Delete this todo?",
///     buttons: [
///       ButtonState(role: .destructive, action: .confirm, label: "Delete"),
///       ButtonState(role: .cancel, label: "Cancel"),
///     ])
/// ```
///
/// Run it with `ifLet(\.$alert, action: \.alert)`: a button's action arrives as
/// `.alert(.presented(action))` and dismisses the alert; a button without an action sends
/// `.alert(.dismiss)`.
public struct AlertState<Action>: _EphemeralState {
  /// The alert's title.
  public var title: TextState
  /// The text under the title.
  public var message: TextState?
  /// The buttons, in order. An alert without buttons shows one that dismisses it.
  public var buttons: [ButtonState<Action>]

  /// An alert with a title, an optional message, and buttons, its text shown as it is.
  public init(title: String, message: String? = nil, buttons: [ButtonState<Action>] = []) {
    self.title = TextState(verbatim: title)
    self.message = message.map { TextState(verbatim: $0) }
    self.buttons = buttons
  }

  /// An alert built as TCA's are: its title, its buttons (none: one that dismisses it) and an
  /// optional message.
  ///
  /// ```swift
  /// AlertState {
  ///   TextState("Delete?")
  /// } actions: {
  ///   ButtonState(role: .destructive, action: .confirm) { TextState("Yes") }
  /// } message: {
  ///   TextState("This can't be undone.")
  /// }
  /// ```
  public init(
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: () -> TextState
  ) {
    self.title = title()
    self.message = message()
    self.buttons = actions()
  }

  /// An alert built as TCA's are, without a message.
  // NB: an overload rather than an optional `message` closure, which would be escaping: the
  // closures may then read a reducer's `inout` state.
  public init(
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] }
  ) {
    self.title = title()
    self.message = nil
    self.buttons = actions()
  }
}

/// A confirmation dialog (an action sheet) as a value: a title, a message and buttons,
/// presented through a ``PresentationState`` like an ``AlertState``.
///
/// ```swift
/// state.dialog = ConfirmationDialogState(titleVisibility: .visible) {
///   TextState("Delete “\(todo.title)”?")
/// } actions: {
///   ButtonState(role: .destructive, action: .confirmDelete) { TextState("Delete") }
///   ButtonState(role: .cancel) { TextState("Keep") }
/// }
/// ```
///
/// or with strings, shown as they are:
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
  public var title: TextState
  /// Whether the title is shown.
  public var titleVisibility: TitleVisibility
  /// The text under the title.
  public var message: TextState?
  /// The buttons, in order.
  public var buttons: [ButtonState<Action>]

  /// A dialog with a title, an optional message, and buttons, its text shown as it is.
  public init(
    title: String, titleVisibility: TitleVisibility = .automatic, message: String? = nil,
    buttons: [ButtonState<Action>] = []
  ) {
    self.title = TextState(verbatim: title)
    self.titleVisibility = titleVisibility
    self.message = message.map { TextState(verbatim: $0) }
    self.buttons = buttons
  }

  /// A dialog built as TCA's are: whether its title shows, its title, its buttons and an
  /// optional message.
  ///
  /// ```swift
  /// ConfirmationDialogState(titleVisibility: .visible) {
  ///   TextState("Share or delete?")
  /// } actions: {
  ///   ButtonState(action: .share) { TextState("Share") }
  ///   ButtonState(role: .destructive, action: .delete) { TextState("Delete") }
  /// }
  /// ```
  public init(
    titleVisibility: TitleVisibility = .automatic,
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: () -> TextState
  ) {
    self.title = title()
    self.titleVisibility = titleVisibility
    self.message = message()
    self.buttons = actions()
  }

  /// A dialog built as TCA's are, without a message.
  public init(
    titleVisibility: TitleVisibility = .automatic,
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] }
  ) {
    self.title = title()
    self.titleVisibility = titleVisibility
    self.message = nil
    self.buttons = actions()
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
