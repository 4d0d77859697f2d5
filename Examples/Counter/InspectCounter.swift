import CounterFeature
import DemoTerminal
import StatecraftInspector

extension CounterApp {
  /// `--inspect`: an inspector on the counter's reactor store (its actions and mutations).
  func startInspector() async -> Inspector<CounterReactor.State, CounterReactor.Action>? {
    await DemoInspector.start { try await Inspector(store: store) }
  }
}
