/// A button of an alert or a confirmation dialog, as a value: its label, its role and the
/// action it sends.
///
/// TCA's spelling, a label built by a closure:
///
/// ```swift
/// ButtonState(role: .destructive, action: .confirmDelete) { TextState("Delete") }
/// ButtonState(action: .send(.retry, animation: .default)) { TextState("Retry") }
/// ButtonState(role: .cancel) { TextState("Cancel") }  // only dismisses
/// ```
///
/// or a label given as a string, shown as it is:
///
/// ```swift
/// ButtonState(role: .destructive, action: .confirmDelete, label: "Delete")
/// ButtonState(role: .cancel, label: "Cancel")
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
  /// The animation the action is sent with, if any (on Apple platforms).
  public var animation: ButtonAnimation?
  /// The button's text.
  public var label: TextState

  /// A button with `label`, shown as it is, that sends `action` (or only dismisses, when it is
  /// nil).
  public init(role: Role? = nil, action: Action? = nil, label: String) {
    self.role = role
    self.action = action
    self.label = TextState(verbatim: label)
  }

  /// A button that sends `action` when pressed: TCA's
  /// `ButtonState(role: .destructive, action: .confirm) { TextState("Delete") }`.
  public init(role: Role? = nil, action: Action, label: () -> TextState) {
    self.role = role
    self.action = action
    self.label = label()
  }

  /// A button that does what `action` says: `.send(.retry)`, `.send(nil)` (only dismisses, the
  /// default), or `.send(.retry, animation: .default)`.
  ///
  /// ```swift
  /// ButtonState(role: .cancel) { TextState("Cancel") }
  /// ButtonState(action: .send(.retry)) { TextState("Retry") }
  /// ```
  public init(
    role: Role? = nil, action: ButtonStateAction<Action> = .send(nil), label: () -> TextState
  ) {
    self.role = role
    self.action = action.action
    self.animation = action.animation
    self.label = label()
  }
}

/// What a ``ButtonState`` does when pressed: send an action, perhaps animated, or nothing but
/// dismiss. TCA's `ButtonStateAction`.
public struct ButtonStateAction<Action> {
  /// The action sent, or nil for a button that only dismisses.
  public let action: Action?
  /// The animation the action is sent with.
  public let animation: ButtonAnimation?

  /// Sends `action` (or only dismisses, when it is nil), with `animation` if one is given.
  public static func send(_ action: Action?, animation: ButtonAnimation? = nil) -> Self {
    Self(action: action, animation: animation)
  }

  /// Sends `action` with `animation`.
  public static func animatedSend(_ action: Action?, animation: ButtonAnimation?) -> Self {
    Self(action: action, animation: animation)
  }
}

/// The animation a button's action is sent with: SwiftUI's `Animation` by name, so that a
/// button is a value on every platform. On Linux it is kept, for tests, and does nothing.
public struct ButtonAnimation: Hashable, Sendable {
  /// The curve's name: `default`, `linear`, `easeIn`, …
  public let name: String

  /// An animation of its own name; the Apple glue shows a name it does not know as `default`.
  public init(name: String) {
    self.name = name
  }

  /// The platform's default animation.
  public static let `default` = Self(name: "default")
  /// A linear animation.
  public static let linear = Self(name: "linear")
  /// An ease-in animation.
  public static let easeIn = Self(name: "easeIn")
  /// An ease-out animation.
  public static let easeOut = Self(name: "easeOut")
  /// An ease-in-out animation.
  public static let easeInOut = Self(name: "easeInOut")
  /// A spring animation.
  public static let spring = Self(name: "spring")
  /// A smooth spring.
  public static let smooth = Self(name: "smooth")
  /// A snappy spring.
  public static let snappy = Self(name: "snappy")
  /// A bouncy spring.
  public static let bouncy = Self(name: "bouncy")
}

/// Builds the buttons of an alert or a dialog: TCA's `actions:` closure.
///
/// ```swift
/// AlertState {
///   TextState("Delete?")
/// } actions: {
///   ButtonState(role: .destructive, action: .confirm) { TextState("Delete") }
///   if canArchive {
///     ButtonState(action: .archive) { TextState("Archive") }
///   }
///   ButtonState(role: .cancel) { TextState("Cancel") }
/// }
/// ```
@resultBuilder
public enum ButtonStateBuilder<Action> {
  public static func buildExpression(_ button: ButtonState<Action>) -> [ButtonState<Action>] {
    [button]
  }

  public static func buildBlock(_ components: [ButtonState<Action>]...) -> [ButtonState<Action>] {
    components.flatMap { $0 }
  }

  public static func buildOptional(_ component: [ButtonState<Action>]?) -> [ButtonState<Action>] {
    component ?? []
  }

  public static func buildEither(first component: [ButtonState<Action>])
    -> [ButtonState<Action>]
  {
    component
  }

  public static func buildEither(second component: [ButtonState<Action>])
    -> [ButtonState<Action>]
  {
    component
  }

  public static func buildArray(_ components: [[ButtonState<Action>]]) -> [ButtonState<Action>] {
    components.flatMap { $0 }
  }

  public static func buildLimitedAvailability(_ component: [ButtonState<Action>])
    -> [ButtonState<Action>]
  {
    component
  }
}

extension ButtonState: CustomReflectable {
  /// Its role, action and label, and its animation when it has one: what a generated test
  /// writes as `ButtonState(role:action:label:)`.
  public var customMirror: Mirror {
    var children: [Mirror.Child] = [("role", role as Any), ("action", action as Any)]
    if let animation { children.append(("animation", animation)) }
    children.append(("label", label))
    return Mirror(self, children: children, displayStyle: .struct)
  }
}

extension ButtonState: Equatable where Action: Equatable {}
extension ButtonState: Hashable where Action: Hashable {}
extension ButtonState: Sendable where Action: Sendable {}

extension ButtonStateAction: Equatable where Action: Equatable {}
extension ButtonStateAction: Hashable where Action: Hashable {}
extension ButtonStateAction: Sendable where Action: Sendable {}

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
