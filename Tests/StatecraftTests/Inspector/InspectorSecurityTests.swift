import Foundation
import Statecraft
import Testing

@testable import StatecraftInspector

extension Engine {
  /// What a hostile client of the Inspector's port can try, on a real server on loopback driven
  /// byte by byte by `WireClient`: each refusal is awaited, with no sleeps.
  @MainActor
  @Suite struct InspectorSecurityTests {
    func makeInspector(
      _ configuration: InspectorConfiguration = InspectorConfiguration()
    ) async throws -> (Store<Tally.State, Tally.Action>, Inspector<Tally.State, Tally.Action>) {
      let store = Store(initialState: Tally.State()) { Tally() }
      let inspector = try await Inspector(store: store, configuration: configuration)
      inspector.replaysImports(against: Tally())
      return (store, inspector)
    }

    /// The message that crashed every demo (`step - 1` on the smallest `Int`), and every other
    /// step that is not a whole number from 0: each is answered with an error, and the socket
    /// and the store go on.
    @Test func aStepThatIsNotAWholeNumberFromZeroIsAnsweredWithAnError() async throws {
      let (store, inspector) = try await makeInspector()
      try await withInspectorPage(inspector) { page, _ in
        store.send(.add(1))
        _ = try await page.readSteps(count: 1)
        let steps = [
          "-9223372036854775808", "-1", "9223372036854775808", "1e300", "3.5", "\"1\"", "true",
          "null", "[1]", "{}",
        ]
        for type in ["detail", "jump"] {
          for step in steps {
            try await page.sendText(#"{"type":"\#(type)","step":\#(step)}"#)
            let reply = try await page.readMessage()
            #expect(reply["type"] as? String == "error", "\(type) \(step)")
            #expect((reply["message"] as? String)?.contains("whole number") == true, "\(step)")
          }
          try await page.sendText(#"{"type":"\#(type)"}"#)
          let missing = try await page.readMessage()
          #expect((missing["message"] as? String)?.contains("needs a \"step\"") == true)
          try await page.sendText(#"{"type":"\#(type)","step":9223372036854775807}"#)
          let beyond = try await page.readMessage()
          #expect((beyond["message"] as? String)?.contains("There is no step") == true)
        }
        try await page.sendText(#"{"type":"detail","step":1}"#)
        let detail = try await page.read(until: "detail").message
        #expect((detail["state"] as? [String: Any])?["count"] as? Int == 1)
      }
      #expect(store.state.count == 1)
      await inspector.stop()
    }
  }
}
