import Statecraft

struct Counter: Reducer {
  struct State: Equatable, Codable {
    var count = 0
    var fact: String?
  }
  enum Action: Equatable, Sendable, Codable {
    case incrementButtonTapped
    case decrementButtonTapped
    case factButtonTapped
    case factResponse(String)
  }

  let fact: @Sendable (Int) async throws -> String

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .incrementButtonTapped:
      state.count += 1
      return .none
    case .decrementButtonTapped:
      state.count = max(0, state.count - 1)
      return .none
    case .factButtonTapped:
      return .run { [count = state.count] send in
        await send(.factResponse(try await fact(count)))
      }
    case .factResponse(let text):
      state.fact = text
      return .none
    }
  }
}
