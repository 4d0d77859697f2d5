import Foundation
import Testing

@testable import Statecraft

extension Engine {
  /// Reading a recording that can't be replayed throws an error that says how to fix it.
  @MainActor
  @Suite struct RecordingErrorTests {
    typealias TallyRecording = Recording<Tally.State, Tally.Action>

    func read(_ json: String) -> RecordingError? {
      do {
        _ = try TallyRecording(jsonData: Data(json.utf8))
        return nil
      } catch {
        return error
      }
    }

    @Test func anotherFormatVersion() {
      let error = read(
        #"{"actions":[],"checkpoints":[],"formatVersion":2,"initialState":{"count":0,"notes":[]},"stateInterval":1}"#
      )
      #expect(error == .unsupportedFormatVersion(found: 2, supported: 1))
      #expect(error?.description.contains("format version 2") == true)
      #expect(error?.description.contains("record the session again") == true)
      #expect(error?.localizedDescription == error?.description)
    }

    @Test func dataThatIsNotARecording() {
      let error = read(#"{"count":0}"#)
      #expect(error == .notARecording)
      #expect(error?.description.contains("'Recording.jsonData()'") == true)
    }

    @Test func actionsThatNoLongerDecode() {
      let error = read(
        #"{"actions":[{"add":{"_0":1}},{"renamed":{}}],"checkpoints":[],"formatVersion":1,"initialState":{"count":0,"notes":[]},"stateInterval":1}"#
      )
      guard case .undecodable(let reason) = error else {
        Issue.record("expected .undecodable, got \(String(describing: error))")
        return
      }
      #expect(reason.hasPrefix("at 'actions[1]'"))
      #expect(error?.description.contains("'State' or 'Action' changed") == true)
    }

    @Test func storedStatesForStepsTheRecordingDoesNotHave() {
      let error = read(
        #"{"actions":[{"add":{"_0":1}}],"checkpoints":[{"state":{"count":1,"notes":[]},"step":2}],"formatVersion":1,"initialState":{"count":0,"notes":[]},"stateInterval":1}"#
      )
      guard case .inconsistent(let reason) = error else {
        Issue.record("expected .inconsistent, got \(String(describing: error))")
        return
      }
      #expect(reason.contains("step 2"))
      #expect(error?.description.contains("record the session again") == true)
    }
  }
}
