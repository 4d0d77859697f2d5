/// One step of an explored session: a user action, or a move of the world between two.
public enum ExplorationStep<Action> {
  /// The user sends an action, and the effects it starts run until they wait (on the clock, or
  /// on work of their own), as a test store's `send` lets them.
  case send(Action)
  /// The effects that can run, run, and deliver their actions.
  case runEffects
  /// Time passes: the effects that can run, run, then the clock advances by the duration,
  /// resuming each sleeper it passes and letting its work run. Where sleepers are due at once,
  /// `order` is the seed of the order they resume in (0: the order they began to sleep in).
  case advanceClock(by: Duration, order: UInt64)

  /// The action, if the step sends one.
  public var action: Action? {
    if case .send(let action) = self { action } else { nil }
  }
}

extension ExplorationStep: CustomStringConvertible {
  /// The step as a person reads it: `send .incrementButtonTapped`.
  public var description: String {
    switch self {
    case .send(let action):
      return "send \(describe(action))"
    case .runEffects:
      return "let effects run"
    case .advanceClock(let duration, let order):
      let base = "advance the clock by \(describe(duration))"
      return order == 0
        ? base : base + " (sleepers due together resume in another order, seed \(order))"
    }
  }
}

extension ExplorationStep: Equatable where Action: Equatable {}
extension ExplorationStep: Sendable where Action: Sendable {}

/// An action as a person reads it: `.add(3)` rather than `Feature.Action.add(3)`.
func describe<Value>(_ value: Value) -> String {
  let text = String(describing: value)
  if value is String { return "\"\(text)\"" }
  // NB: an enum case prints without its type (`add(3)`): written as Swift reads it, `.add(3)`.
  if Mirror(reflecting: value).displayStyle == .enum, !text.hasPrefix(".") { return "." + text }
  return text
}

/// A duration as a person reads it: `300 ms`, `1 s`.
func describe(_ duration: Duration) -> String {
  let (seconds, attoseconds) = duration.components
  let milliseconds = seconds * 1_000 + attoseconds / 1_000_000_000_000_000
  if milliseconds % 1_000 == 0 { return "\(milliseconds / 1_000) s" }
  return "\(milliseconds) ms"
}
