import Statecraft

struct Counter: Reducer {
  struct State: Equatable, Codable {
    var count = 0
  }
  enum Action: Equatable, Sendable, Codable {
    case incrementButtonTapped
    case decrementButtonTapped
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .incrementButtonTapped:
      state.count += 1
      return .none
    case .decrementButtonTapped:
      state.count -= 1
      return .none
    }
  }
}
