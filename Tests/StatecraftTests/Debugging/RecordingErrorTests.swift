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

    @Test(arguments: ["", "  \n"])
    func anEmptyRecordingIsReportedAsEmpty(json: String) {
      let error = read(json)
      #expect(error == .empty)
      #expect(error?.description.contains("The recording is empty") == true)
      #expect(error?.description.contains("'State' or 'Action'") == false)
    }

    @Test func aRecordingCutShortIsReportedAsTruncated() throws {
      let whole =
        #"{"actions":[{"add":{"_0":1}}],"checkpoints":[],"formatVersion":1,"initialState":{"count":0,"notes":["a \"q\" }"]},"stateInterval":1}"#
      #expect(read(whole) == nil)
      for length in [1, 20, 60, 100, whole.utf8.count - 1] {
        let cut = String(decoding: Array(whole.utf8.prefix(length)), as: UTF8.self)
        let error = read(cut)
        #expect(error == .truncated(byteCount: length), "cut at \(length)")
        #expect(error?.description.contains("cut short") == true)
        #expect(error?.description.contains("'State' or 'Action'") == false)
      }
    }

    @Test func dataThatIsNotJSON() {
      let error = read("hello, world")
      #expect(error == .notJSON)
      #expect(error?.description.contains("'State' or 'Action'") == false)
    }

    @Test func aFileThatCannotBeReadIsSaidInWords() throws {
      let url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "statecraft-missing-\(UUID().uuidString).json")
      #expect {
        _ = try TallyRecording(contentsOf: url)
      } throws: { error in
        guard case .unreadable(let path, let reason) = error as? RecordingError else {
          return false
        }
        let message = String(describing: error)
        return path == url.path && reason.contains("no such file")
          && !message.contains("Domain") && message.hasSuffix(".")
      }
    }
  }
}
