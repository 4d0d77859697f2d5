import Foundation
import StatecraftInspector

/// `--inspect`: the Statecraft Inspector for a demo's store, its URL printed to standard error.
public enum DemoInspector {
  /// Starts an inspector with `start` and prints the URL to open on standard error; nil, after
  /// saying why, when it can't start.
  ///
  /// A full-screen demo clears the terminal when it starts: it then waits for Enter first, so
  /// that the URL can be copied.
  ///
  /// ```swift
  /// let inspector = inspect ? await DemoInspector.start { try await Inspector(store: store) } : nil
  /// // ... the demo runs ...
  /// await inspector?.stop()
  /// ```
  @MainActor
  public static func start<State, Action>(
    _ start: @MainActor () async throws -> Inspector<State, Action>
  ) async -> Inspector<State, Action>? {
    let inspector: Inspector<State, Action>
    do {
      inspector = try await start()
    } catch {
      printError("error: the inspector did not start: \(error)")
      return nil
    }
    printError("Inspector: \(inspector.url.absoluteString)")
    if Terminal.isInteractive {
      printError("Open it in a browser, then press Enter to start.")
      _ = readLine()
    }
    return inspector
  }
}
