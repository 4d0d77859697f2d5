/// A step of a session as exploration holds it: a sent action keeps what it may shrink to.
enum Step<Action> {
  case send(Shrinkable<Action>)
  case runEffects
  case advanceClock(by: Duration, order: UInt64)

  var isSend: Bool {
    if case .send = self { true } else { false }
  }

  var isAdvance: Bool {
    if case .advanceClock = self { true } else { false }
  }

  init(_ step: ExplorationStep<Action>) {
    switch step {
    case .send(let action): self = .send(Shrinkable(action))
    case .runEffects: self = .runEffects
    case .advanceClock(let duration, let order): self = .advanceClock(by: duration, order: order)
    }
  }

  var exported: ExplorationStep<Action> {
    switch self {
    case .send(let action): .send(action.value)
    case .runEffects: .runEffects
    case .advanceClock(let duration, let order): .advanceClock(by: duration, order: order)
    }
  }
}
