import Foundation
import Testing

@testable import Statecraft

extension Engine {
  @MainActor
  @Suite struct RecorderTests {
    @Test func recordsEveryActionIncludingThoseEffectsSend() async {
      let recorder = Recorder<Tally.State, Tally.Action>(initialState: Tally.State())
      let store = Store(initialState: recorder.initialState) {
        Tally().recording(into: recorder)
      }
      store.send(.add(1))
      await store.send(.fetch).finish()
      let recording = recorder.recording
      #expect(recording.actions == [.add(1), .fetch, .fetched(100), .note("fetched")])
      #expect(recording.checkpoints.map(\.step) == [1, 2, 3, 4])
      #expect(recording.checkpoints.map(\.state.count) == [1, 1, 100, 100])
      #expect(recording.storedState(at: 0) == Tally.State())
      #expect(recording.storedState(at: 4) == store.state)
      #expect(recorder.stepCount == 4)
    }

    @Test func roundTripRecordExportImportReplay() async throws {
      let recorder = Recorder<Tally.State, Tally.Action>(initialState: Tally.State())
      let store = Store(initialState: recorder.initialState) {
        Tally().recording(into: recorder)
      }
      store.send(.add(3))
      store.send(.note("hello"))
      await store.send(.fetch).finish()
      store.send(.add(-1))

      let json = try recorder.recording.jsonData()
      let imported = try Recording<Tally.State, Tally.Action>(jsonData: json)
      #expect(imported == recorder.recording)

      let result = imported.replay(against: Tally())
      #expect(result.isReproduced)
      #expect(result.checkedStepCount == 6)
      #expect(result.finalState == store.state)
      #expect(result.description == "reproduced: 6 steps")
    }

    /// The command-line pattern: record only when asked, write on quit, replay from the file.
    @Test func recordsOnlyWhenARecorderIsGivenAndReplaysFromTheFile() throws {
      let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("statecraft-session-\(UUID().uuidString).json")
      defer { try? FileManager.default.removeItem(at: url) }
      for isRecording in [false, true] {
        let recorder = isRecording ? RecorderOf<Tally>(initialState: Tally.State()) : nil
        let store = Store(initialState: recorder?.initialState ?? Tally.State()) {
          if let recorder { Tally().recording(into: recorder) } else { Tally() }
        }
        store.send(.add(2))
        try recorder?.recording.write(to: url)
      }
      let recording = try RecordingOf<Tally>(contentsOf: url)
      #expect(recording.actions == [.add(2)])
      #expect("\(recording.replay(against: Tally()))" == "reproduced: 1 step")
    }

    @Test func roundTripThroughAFile() throws {
      let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("statecraft-recording-\(UUID().uuidString).json")
      defer { try? FileManager.default.removeItem(at: url) }
      let recorder = Recorder<Tally.State, Tally.Action>(initialState: Tally.State())
      let store = Store(initialState: recorder.initialState) { Tally().recording(into: recorder) }
      store.send(.add(1))
      try recorder.recording.write(to: url)
      let imported = try Recording<Tally.State, Tally.Action>(contentsOf: url)
      #expect(imported.replay(against: Tally()).description == "reproduced: 1 step")
    }

    @Test func jsonCarriesTheFormatVersion() throws {
      let recorder = Recorder<Tally.State, Tally.Action>(initialState: Tally.State())
      let json = try recorder.recording.jsonData()
      #expect(
        String(decoding: json, as: UTF8.self)
          == #"{"actions":[],"checkpoints":[],"formatVersion":1,"initialState":{"count":0,"notes":[]},"stateInterval":1}"#
      )
      #expect(Recording<Tally.State, Tally.Action>.formatVersion == 1)
    }

    @Test func aChangedReducerDivergesAtTheRightStepWithADiff() throws {
      let recorder = Recorder<Tally.State, Tally.Action>(initialState: Tally.State())
      let store = Store(initialState: recorder.initialState) { Tally().recording(into: recorder) }
      store.send(.add(5))
      store.send(.add(5))
      store.send(.note("x"))
      store.send(.add(5))
      store.send(.add(5))

      let result = recorder.recording.replay(against: Tally(doublesFrom: 10))
      #expect(!result.isReproduced)
      let divergence = try #require(result.divergence)
      #expect(divergence.step == 4)
      #expect(divergence.action == .add(5))
      #expect(divergence.expected.count == 15)
      #expect(divergence.replayed.count == 20)
      #expect(divergence.lastMatchingStep == 3)
      #expect(result.checkedStepCount == 3)
      #expect(
        divergence.diff == """
            Tally.State(
          -   count: 15,
          +   count: 20,
              notes: […]
            )
          """)
      #expect(
        result.description == """
          diverged at step 4 of 5: the replayed state differs from the recorded one after the action
            Tally.Action.add(5)
          expected (-) vs replayed (+):
            Tally.State(
          -   count: 15,
          +   count: 20,
              notes: […]
            )

          """ + ReplayDivergence<Tally.State, Tally.Action>.reasons)
    }

    @Test func withSampledStatesTheDivergenceNamesTheStepsItCouldBe() {
      let recorder = Recorder<Tally.State, Tally.Action>(
        initialState: Tally.State(), storingStateEvery: 3)
      let store = Store(initialState: recorder.initialState) { Tally().recording(into: recorder) }
      for _ in 1...7 { store.send(.add(5)) }
      #expect(recorder.recording.checkpoints.map(\.step) == [3, 6])

      // Diverges at step 3 (count 10 → 20); the first stored state after it is step 3.
      let result = recorder.recording.replay(against: Tally(doublesFrom: 10))
      #expect(result.divergence?.step == 3)
      #expect(result.divergence?.lastMatchingStep == 0)
      #expect(
        result.description.contains(
          "The states of steps 1 to 2 were not stored; the replay went wrong at one of the steps "
            + "from 1 to 3."))
    }

    @Test func anEditedRecordingWhoseStatesCannotBeReproducedIsDetected() throws {
      let recorder = Recorder<Tally.State, Tally.Action>(initialState: Tally.State())
      let store = Store(initialState: recorder.initialState) { Tally().recording(into: recorder) }
      store.send(.add(1))
      store.send(.note("a"))
      store.send(.add(1))
      // The stored state of step 2 is edited by hand: the same reducer can't reproduce it.
      let json = String(decoding: try recorder.recording.jsonData(), as: UTF8.self)
      let edited = json.replacingOccurrences(
        of: #"{"state":{"count":1,"notes":["a"]},"step":2}"#,
        with: #"{"state":{"count":1,"notes":["b"]},"step":2}"#)
      #expect(edited != json)
      let recording = try Recording<Tally.State, Tally.Action>(jsonData: Data(edited.utf8))
      let result = recording.replay(against: Tally())
      #expect(result.divergence?.step == 2)
      #expect(result.divergence?.action == .note("a"))
      #expect(
        result.divergence?.diff == """
            Tally.State(
              count: 1,
              notes: [
          -     [0]: "b"
          +     [0]: "a"
              ]
            )
          """)
    }

    @Test func memoryStaysBoundedWhenSamplingALongSession() {
      let recorder = Recorder<Tally.State, Tally.Action>(
        initialState: Tally.State(), storingStateEvery: 1_000)
      let store = Store(initialState: recorder.initialState) { Tally().recording(into: recorder) }
      for index in 0..<100_000 {
        store.send(index.isMultiple(of: 10_000) ? .note("\(index)") : .add(1))
      }
      let recording = recorder.recording
      #expect(recording.stepCount == 100_000)
      #expect(recording.checkpoints.count == 100)
      #expect(
        recording.checkpoints.map(\.step) == Array(stride(from: 1_000, through: 100_000, by: 1_000))
      )
      // Unstored steps are recomputed from the nearest stored state before them.
      #expect(recording.state(at: 99_999, reducer: Tally())?.count == 99_989)
      #expect(recording.replay(against: Tally()).isReproduced)
    }
  }
}
