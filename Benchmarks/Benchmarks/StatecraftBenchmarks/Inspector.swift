import Statecraft
import StatecraftInspector

// MARK: - B13: an attached inspector with no page

/// B1's 100,000 sends to a store with an inspector attached and no page connected, or to the
/// same store without one: the inspector must cost the send path next to nothing.
@MainActor
func b13Store(inspected: Bool, _ handle: BenchmarkHandle) async {
  let store = Store(initialState: Counter.State(), reducer: Counter())
  var inspector: Inspector<Counter.State, Counter.Action>?
  if inspected {
    do {
      inspector = try await Inspector(store: store)
    } catch {
      handle.check(false, "B13: the inspector did not start: \(error)")
      return
    }
  }
  handle.measure {
    for _ in 0..<Size.sends { store.send(.increment) }
  }
  handle.check(store.count == Size.sends, "B13: count is \(store.count)")
  await inspector?.stop()
}
