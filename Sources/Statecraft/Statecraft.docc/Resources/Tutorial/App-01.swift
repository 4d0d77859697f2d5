import Statecraft
import StatecraftInspector

@MainActor
func runCounter() async throws {
  let store = Store(initialState: Counter.State()) {
    Counter(fact: { number in "\(number) is a good number." })
  }
  #if DEBUG
    let inspector = try await Inspector(store: store)
    print("Inspect at \(inspector.url)")  // open it in a browser on this machine
  #endif

  // … the app runs, sending actions to `store` …
}
