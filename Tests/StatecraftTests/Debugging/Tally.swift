import Statecraft

/// A small feature with `Codable` state and actions, an effect that sends an action, and a knob
/// that changes its logic: the debugging tools' fixture.
struct Tally: Reducer {
  struct State: Codable, Equatable, Sendable {
    var count = 0
    var notes: [String] = []
  }

  enum Action: Codable, Equatable, Sendable {
    case add(Int)
    case note(String)
    case fetch
    case fetched(Int)
  }

  /// A changed reducer: from this count on, `add` adds twice as much.
  var doublesFrom: Int? = nil

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add(let amount):
      let factor = doublesFrom.map { state.count >= $0 ? 2 : 1 } ?? 1
      state.count += amount * factor
      return .none
    case .note(let text):
      state.notes.append(text)
      return .none
    case .fetch:
      return .run { send in await send(.fetched(100)) }
    case .fetched(let value):
      state.count = value
      return .send(.note("fetched"))
    }
  }
}
