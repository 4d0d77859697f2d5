import Foundation
import StatecraftTestGenerator
import Testing

@testable import Statecraft

extension Engine {
  /// The test generator on a long session whose state keeps a bounded history of itself (an
  /// undo stack): each step costs what changed at it, and asserts the smallest mutation, never
  /// a list written out again.
  @MainActor
  @Suite struct TestGeneratorScaleTests {
    @Test func aLongSessionWithABoundedHistoryCostsWhatChangedAtEachStep() async throws {
      let recorder = RecorderOf<Journal>(initialState: Journal.State())
      let store = Store(initialState: recorder.initialState) { Journal() }
      store.record(into: recorder)
      for id in 1...300 { store.send(.add(id)) }
      // NB: the last state holds 300 entries, and 100 earlier lists of them: 25,000 in all.
      #expect(store.history.map(\.count).reduce(store.entries.count, +) > 25_000)

      let before = Journal.Entry.reflections.withLock { $0 }
      let source = TestGenerator.generate(
        from: recorder.recording,
        configuration: TestGenerator.Configuration(reducer: "Journal()", testName: "journal"))
      let reflections = Journal.Entry.reflections.withLock { $0 } - before
      // Each entry is read a few times in all, not once per list that holds it at each step.
      #expect(reflections < 10 * 300)

      // A step past the history's bound drops its oldest list and appends the list as it was,
      // by name: the test grows with the steps, not with the square of them.
      #expect(
        source.contains(
          """
            await store.send(.add(300)) {
              $0.history.removeFirst()
              $0.history.append($0.entries)
              $0.entries.append(Journal.Entry(id: 300, note: "Entry 300 of the journal"))
            }
          """))
      #expect(source.utf8.count < 300 * 250)
    }

    /// An export stores the actions and a few states (those it can't recompute, and the last);
    /// the states between are recomputed, and a stored state equal to the one recomputed is
    /// read as that one, which shares its storage with the step before.
    @Test func aRecordingWithFewStatesCostsWhatChangedAtEachStepToo() async throws {
      func record(storingStateEvery interval: Int) -> RecordingOf<Journal> {
        let recorder = RecorderOf<Journal>(
          initialState: Journal.State(), storingStateEvery: interval)
        let store = Store(initialState: recorder.initialState) { Journal() }
        store.record(into: recorder)
        for id in 1...300 { store.send(.add(id)) }
        return recorder.recording
      }
      // NB: read back from JSON, the stored states share no storage with the steps before.
      let sparse = try RecordingOf<Journal>(
        jsonData: record(storingStateEvery: 100).jsonData())
      #expect(sparse.checkpoints.map(\.step) == [100, 200, 300])

      let before = Journal.Entry.reflections.withLock { $0 }
      let source = TestGenerator.generate(
        from: sparse, recomputingStatesWith: Journal(),
        configuration: TestGenerator.Configuration(reducer: "Journal()", testName: "journal"))
      let reflections = Journal.Entry.reflections.withLock { $0 } - before
      #expect(reflections < 10 * 300)
      #expect(source.contains("$0.history.append($0.entries)"))
      #expect(
        source
          == TestGenerator.generate(
            from: record(storingStateEvery: 1),
            configuration: TestGenerator.Configuration(reducer: "Journal()", testName: "journal")))
    }
  }
}
