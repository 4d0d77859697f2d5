import CasePathsCore
import DemoTerminal
import Foundation
import Statecraft
import StatecraftInspector
import TodosFeature

extension TodosApp {
  /// `--inspect`: an inspector on the todo list (the list's state and actions inside the app's
  /// navigation), which exports sessions that `--replay` reads and replays imported ones.
  ///
  /// - Parameter configuration: The inspector's; a test generator given in it shows the page's
  ///   "Generate test" button.
  func startInspector(
    configuration: InspectorConfiguration = InspectorConfiguration(
      generateTest: TodosTestGeneration.test(ofExportedSession:))
  ) async -> Inspector<Todos.State, Todos.Action>? {
    await DemoInspector.start {
      let inspector = try await Inspector(
        store: navigation, state: \.list,
        action: AnyCasePath(embed: TodosNavigation.Action.list) {
          if case .list(let action) = $0 { action } else { nil }
        },
        configuration: configuration)
      // NB: a replay runs no effects, so the feature's dependencies are never called.
      inspector.replaysImports(against: Todos())
      return inspector
    }
  }
}
