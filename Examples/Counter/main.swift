import Statecraft

struct Counter: Reducer {
  struct State: Equatable {
    var count = 0
  }
  enum Action {
    case increment
    case decrement
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment: state.count += 1
    case .decrement: state.count -= 1
    }
    return .none
  }
}

@MainActor
func main() {
  let store = Store(initialState: Counter.State()) { Counter() }
  print("Statecraft counter. Type + or - and press return; q quits.")
  while let line = readLine() {
    switch line.trimmingCharacters(in: .whitespaces) {
    case "+": store.send(.increment)
    case "-": store.send(.decrement)
    case "q": return
    default:
      print("Unknown command '\(line)'. Use +, - or q.")
      continue
    }
    print("count: \(store.count)")
  }
}

MainActor.assumeIsolated { main() }
