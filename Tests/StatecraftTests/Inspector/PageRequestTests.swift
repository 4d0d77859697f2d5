import Foundation
import Testing

@testable import StatecraftInspector

/// The one decoder of what a page sends: every kind, and every way a field can be wrong.
@Suite struct PageRequestTests {
  @Test func everyKindIsRead() throws {
    let kinds: [(String, PageRequest.Kind)] = [
      (#"{"type":"detail","step":0}"#, .detail(step: 0)),
      (#"{"type":"follow"}"#, .follow),
      (#"{"type":"jump","step":3}"#, .jump(step: 3)),
      (#"{"type":"resume"}"#, .resume),
      (#"{"type":"continue","step":2}"#, .continueFrom(step: 2)),
      (#"{"type":"undoContinue"}"#, .undoContinue),
      (
        #"{"type":"send","action":{"add":{"_0":1}}}"#,
        .send(actionJSON: Data(#"{"add":{"_0":1}}"#.utf8))
      ),
      (#"{"type":"generateTest","extra":[1,2]}"#, .generateTest),
      (#"{"type":"cancel"}"#, .cancel),
      (#"{"type":"jump","step":9223372036854775807}"#, .jump(step: .max)),
    ]
    for (text, kind) in kinds {
      #expect(try PageRequest(text).kind == kind, "\(text)")
    }
  }

  @Test func aStepIsAWholeNumberFromZero() {
    let wrong = [
      "-9223372036854775808", "-1", "9223372036854775808", "1e300", "0.5", "-0.5", "\"2\"",
      "true", "false", "null", "[0]", "{\"step\":0}",
    ]
    for type in ["detail", "jump", "continue"] {
      for step in wrong {
        #expect(
          throws: PageRequestError.self, "\(type) \(step)",
          performing: { try PageRequest(#"{"type":"\#(type)","step":\#(step)}"#) })
        do {
          _ = try PageRequest(#"{"type":"\#(type)","step":\#(step)}"#)
        } catch {
          #expect(error.message.contains("must be a whole number from 0"), "\(step)")
          #expect(error.message.contains("\"\(type)\""), "\(step)")
        }
      }
      #expect(
        throws: PageRequestError("A \"\(type)\" message needs a \"step\": a whole number from 0.")
      ) {
        try PageRequest(#"{"type":"\#(type)"}"#)
      }
    }
  }

  @Test func whatIsWrongIsQuotedShort() throws {
    do {
      _ = try PageRequest(#"{"type":"jump","step":"\#(String(repeating: "9", count: 500))"}"#)
      Issue.record("a string step was read")
    } catch {
      #expect(error.message.count < 200)
      #expect(error.message.contains("\"999"))
    }
    do {
      _ = try PageRequest(#"{"type":"\#(String(repeating: "z", count: 500))"}"#)
      Issue.record("an unknown type was read")
    } catch {
      #expect(error.message.contains("Unknown message type \"zzz"))
      #expect(error.message.count < 300)
    }
  }
}
