import Clocks
import Foundation
import IdentifiedCollections
import StatecraftTestGenerator
import Testing
import TodosFeature

@testable import Statecraft

extension Engine {
  /// A test generated straight from a live `Recorder`, whose stored states hold references to
  /// the store's shared values, is the test generated from the same recording read back from
  /// its JSON, where each step's shared values are its own.
  @MainActor
  @Suite struct TestGeneratorLiveRecordingTests {
    @Test func aLiveRecorderGeneratesWhatItsJSONDoesWithEachStepsSharedValues() async throws {
      let recorder = RecorderOf<Locker>(
        initialState: Locker.State(box: Shared(value: Locker.Box())))
      let store = Store(initialState: recorder.initialState) { Locker() }
      store.record(into: recorder)
      store.send(.put("a"))
      store.send(.put("b"))
      store.send(.empty)
      store.send(.put("c"))
      let configuration = TestGenerator.Configuration(reducer: "Locker()", testName: "locker")
      let live = TestGenerator.generate(from: recorder.recording, configuration: configuration)
      let decoded = TestGenerator.generate(
        from: try RecordingOf<Locker>(jsonData: recorder.recording.jsonData()),
        configuration: configuration)
      #expect(live == decoded)
      // NB: the shared box starts empty and ends with "c": the test starts where the session
      // did, and asserts each change of the box.
      #expect(
        live.contains(
          #"TestStore(initialState: Locker.State(box: Shared(value: Locker.Box(count: 0, "#
            + #"names: [])), label: "")) {"#))
      #expect(
        live.contains(
          """
            await store.send(.put("a")) {
              $0.box.count = 1
              $0.box.names.append("a")
              $0.label = "a"
            }
          """))
      #expect(live.contains("  await store.send(.empty) {\n    $0.box.count = 0\n"))
      #expect(live.contains(#"$0.box.names.append("c")"#))
      // NB: reading a step's shared values leaves the live ones as they are.
      #expect(store.box.names == ["c"])
    }

    /// The todo list is a shared value: a session of the demo's screens, recorded live on the
    /// list inside its navigation, generates the test its JSON does, which asserts each change
    /// of the list.
    @Test func aLiveTodosSessionGeneratesWhatItsJSONDoes() async throws {
      let clock = TestClock()
      let recorder = RecorderOf<Todos>(
        initialState: Todos.State(todos: [Todo(id: 1, title: "Buy milk")]), clock: clock)
      let store = Store(initialState: TodosNavigation.State(list: recorder.initialState)) {
        TodosNavigation { Todos().recording(into: recorder) }
      } withDependencies: {
        $0.continuousClock = clock
      }
      store.send(.list(.add("Walk the dog")))
      store.send(.open(id: 2))
      let screen = store.path.ids[0]
      await store.send(.path(.element(id: screen, action: .setTitle("Walk the cat")))).finish()
      await store.send(.path(.element(id: screen, action: .setNotes("Before noon")))).finish()
      store.send(.back)
      store.send(.deleteTapped(id: 1))
      store.send(.confirmation(.press(store.confirmation!.buttons[0])))
      store.send(.list(.undo))
      let search = store.send(.list(.searchChanged("dog")))
      await clock.advance(by: Todos.searchDebounce)
      await search.finish()

      let configuration = TestGenerator.Configuration(
        imports: ["IdentifiedCollections", "TodosFeature"], reducer: "Todos()",
        dependencies: ["$0.continuousClock = clock"],
        clock: TestGenerator.Clock())
      let live = TestGenerator.generate(from: recorder.recording, configuration: configuration)
      let decoded = TestGenerator.generate(
        from: try RecordingOf<Todos>(jsonData: recorder.recording.jsonData()),
        configuration: configuration)
      #expect(live == decoded)
      #expect(
        live.contains(
          #"list: Shared(value: TodoList(todos: [Todo(id: 1, title: "Buy milk", isDone: false, "#
            + #"notes: "")]))"#))
      for line in [
        #"$0.list.todos.append(Todo(id: 2, title: "Walk the dog", isDone: false, notes: ""))"#,
        #"await store.send(.edit(id: 2, title: "Walk the cat")) {"#,
        #"$0.list.todos[id: 2]?.title = "Walk the cat""#,
        #"$0.list.todos[id: 2]?.notes = "Before noon""#,
        "await store.send(.delete(id: 1)) {", "$0.list.todos.remove(id: 1)",
        #"$0.list.todos.insert(Todo(id: 1, title: "Buy milk", isDone: false, notes: ""), at: 0)"#,
        #"await store.receive(.searchApplied("dog")) {"#,
      ] {
        #expect(live.contains(line), "\(line)")
      }
    }

    @Test func aLiveNavigationSessionAssertsItsSharedCount() async throws {
      let recording = await TestGeneratorNavigationTests.recordTrailSession()
      let source = TestGenerator.generate(
        from: recording, configuration: TestGenerator.Configuration(reducer: "Trail()"))
      #expect(source.contains("visits: Shared(value: 0)"))
      #expect(source.contains("$0.visits.wrappedValue = 1\n"))
      #expect(source.contains("$0.visits.wrappedValue = 3\n"))
    }
  }
}
