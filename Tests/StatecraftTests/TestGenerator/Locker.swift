import Statecraft

/// A feature whose state holds a shared value: the test generator mutates it through the
/// reference, never replaces it.
struct Locker: Reducer {
  struct State: Codable, Equatable, Sendable {
    var box: Shared<Box>
    var label = ""
  }

  struct Box: Codable, Equatable, Sendable {
    var count = 0
    var names: [String] = []
  }

  enum Action: Codable, Equatable, Sendable {
    case put(String)
    case empty
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .put(let name):
      state.box.count += 1
      state.box.names.append(name)
      state.label = name
      return .none
    case .empty:
      state.box.wrappedValue = Box()
      return .none
    }
  }
}
