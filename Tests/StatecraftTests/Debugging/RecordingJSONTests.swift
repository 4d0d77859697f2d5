import Foundation
import Testing

@testable import Statecraft

// NB: in the serialized `Engine` suite: its stores run on the main actor beside the others.
extension Engine {
  /// A recording's JSON has one writer (`RecordingJSON`), which the Inspector's export uses too:
  /// it writes what `Recording`'s `Encodable` conformance writes, byte for byte, so that the two
  /// can't drift apart.
  @MainActor
  @Suite struct RecordingJSONTests {
    func encoded<State: Encodable, Action: Encodable>(
      _ recording: Recording<State, Action>
    ) throws -> String {
      String(decoding: try RecordingJSON.makeEncoder().encode(recording), as: UTF8.self)
    }

    @Test func theWriterWritesWhatTheEncoderWritesWithOriginsAndTimes() async throws {
      let recorder = RecorderOf<Tally>(initialState: Tally.State(), storingStateEvery: 2)
      let store = Store(initialState: recorder.initialState) { Tally() }
      store.record(into: recorder)
      await store.send(.fetch).finish()
      store.send(.note("a \"quoted\" / slashed note"))
      let recording = recorder.recording
      #expect(recording.origins == [.send, .effect, .effect, .send])
      #expect(recording.checkpoints.map(\.step) == [2, 4])
      let written = String(decoding: try recording.jsonData(), as: UTF8.self)
      #expect(written == (try encoded(recording)))
      #expect(try RecordingOf<Tally>(jsonData: Data(written.utf8)) == recording)
    }

    @Test func theWriterWritesWhatTheEncoderWritesWithSharedValues() throws {
      let initial = SharedNotes.State(lines: Shared(value: ["a"]))
      let recorder = Recorder<SharedNotes.State, SharedNotes.Action>(initialState: initial)
      let store = Store(initialState: initial) { SharedNotes().recording(into: recorder) }
      store.send(.add("b"))
      store.send(.removeFirst)
      let recording = recorder.recording
      let written = String(decoding: try recording.jsonData(), as: UTF8.self)
      #expect(written == (try encoded(recording)))
      // NB: each stored state holds its shared value as it was at that step, not as it is now.
      #expect(written.contains(#"{"state":{"draft":"b","lines":["a","b"]},"step":1}"#))
    }

    @Test func theWriterWritesWhatTheEncoderWritesWithoutActionsOrOrigins() throws {
      let empty = RecorderOf<Tally>(initialState: Tally.State()).recording
      #expect(String(decoding: try empty.jsonData(), as: UTF8.self) == (try encoded(empty)))
      #expect(!String(decoding: try empty.jsonData(), as: UTF8.self).contains("origins"))
      // NB: a recording written before origins and times existed reads with each unknown, and
      // is written with nulls.
      let old = #"""
        {"actions":[{"add":{"_0":1}}],"checkpoints":[{"state":{"count":1,"notes":[]},"step":1}],
        "formatVersion":1,"initialState":{"count":0,"notes":[]},"stateInterval":1}
        """#
      let unknown = try RecordingOf<Tally>(jsonData: Data(old.utf8))
      let written = String(decoding: try unknown.jsonData(), as: UTF8.self)
      #expect(written == (try encoded(unknown)))
      #expect(written.contains(#""origins":[null]"#))
      #expect(written.contains(#""times":[null]"#))
    }
  }
}
