import DemoTerminal
import PagingFeature
import StatecraftInspector

extension PagingApp {
  /// `--inspect`: an inspector on the paging feedback system's store (its events and the
  /// feedback loop's own).
  func startInspector() async -> Inspector<Paging.State, Paging.Event>? {
    await DemoInspector.start { try await Inspector(store: store) }
  }
}
