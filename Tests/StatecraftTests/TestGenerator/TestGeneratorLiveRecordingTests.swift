import Foundation
import StatecraftTestGenerator
import Testing

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
