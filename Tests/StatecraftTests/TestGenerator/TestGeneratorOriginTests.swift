import CasePathsCore
import Clocks
import Foundation
import IdentifiedCollections
import StatecraftTestGenerator
import Testing
import TodosFeature

@testable import Statecraft
@testable import StatecraftInspector

extension Engine {
  /// Where an action came from, as a feature inside a larger store sees it: a test generated from
  /// a session of the todo list inside its navigation sends what the navigation's effects send
  /// the list (a detail screen's edit, a confirmed delete), and receives what the list's own
  /// effects send (the debounced search).
  @MainActor
  @Suite struct TestGeneratorOriginTests {
    static let listCase = AnyCasePath<TodosNavigation.Action, Todos.Action>(
      embed: TodosNavigation.Action.list
    ) { if case .list(let action) = $0 { action } else { nil } }

    static func makeStore(clock: TestClock<Duration>) -> StoreOf<TodosNavigation> {
      Store(
        initialState: TodosNavigation.State(
          list: Todos.State(todos: [Todo(id: 1, title: "one"), Todo(id: 2, title: "two")]))
      ) {
        TodosNavigation { Todos() }
      } withDependencies: {
        $0.continuousClock = clock
      }
    }

    /// Opens todo 2, retitles it on its detail screen, goes back, deletes todo 1 after its
    /// confirmation, and searches.
    static func useTheScreens(_ store: StoreOf<TodosNavigation>, clock: TestClock<Duration>) async {
      store.send(.open(id: 2))
      await store.send(.path(.element(id: store.path.ids[0], action: .setTitle("X")))).finish()
      store.send(.back)
      store.send(.deleteTapped(id: 1))
      store.send(.confirmation(.press(store.confirmation!.buttons[0])))
      let search = store.send(.list(.searchChanged("x")))
      await clock.advance(by: Todos.searchDebounce)
      await search.finish()
    }

    @Test func aStepTellsWhichActionsEffectSentIt() async {
      let clock = TestClock()
      let store = Self.makeStore(clock: clock)
      let log = StepLog()
      let observer = store.runtime.stepObservers.add { step in
        guard let action = Self.listCase.extract(from: step.action as! TodosNavigation.Action)
        else { return }
        log.steps.append(
          (
            action, step.origin,
            step.origin(forFeature: {
              ($0 as? TodosNavigation.Action).flatMap(Self.listCase.extract)
            })
          ))
      }
      defer { store.runtime.stepObservers.remove(observer) }
      await Self.useTheScreens(store, clock: clock)
      #expect(
        log.steps.map(\.action) == [
          .edit(id: 2, title: "X"), .delete(id: 1), .searchChanged("x"), .searchApplied("x"),
        ])
      // NB: for the whole store, every one but the search was sent by an effect; for the list,
      // only the search's debounced action was.
      #expect(log.steps.map(\.rootOrigin) == [.effect, .effect, .send, .effect])
      #expect(log.steps.map(\.featureOrigin) == [.send, .send, .send, .effect])
    }

    @Test func aSessionExportedByTheInspectorSendsWhatTheParentSentTheFeature() async throws {
      let clock = TestClock()
      let store = Self.makeStore(clock: clock)
      let inspector = try await Inspector(store: store, state: \.list, action: Self.listCase)
      let source = try await withInspectorPage(inspector, host: "localhost") { _, _ in
        await Self.useTheScreens(store, clock: clock)
        let recording = try await RecordingOf<Todos>(jsonData: inspector.session.exportData())
        #expect(recording.origins == [.send, .send, .send, .effect])
        // NB: the export stores the states it can't recompute; the test's assertions need them
        // all, recomputed with the reducer.
        return TestGenerator.generate(
          from: recording, recomputingStatesWith: Todos(),
          configuration: TestGenerator.Configuration(
            imports: ["IdentifiedCollections", "TodosFeature"], reducer: "Todos()",
            dependencies: ["$0.continuousClock = clock"],
            initialState: .recorded, clock: TestGenerator.Clock()))
      }
      await inspector.stop()
      #expect(source.contains(#"await store.send(.edit(id: 2, title: "X")) {"#))
      #expect(source.contains("await store.send(.delete(id: 1)) {"))
      #expect(source.contains(#"await store.receive(.searchApplied("x")) {"#))
      #expect(!source.contains("receive(.edit"))
      #expect(!source.contains("receive(.delete"))
    }
  }
}

/// The list's steps a step observer saw.
@MainActor
private final class StepLog {
  var steps: [(action: Todos.Action, rootOrigin: ActionOrigin, featureOrigin: ActionOrigin)] = []
}
