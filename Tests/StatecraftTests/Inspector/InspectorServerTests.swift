import Foundation
import Statecraft
import Testing

@testable import StatecraftInspector

extension Engine {
  /// The Inspector's server on loopback, driven at the byte level by `WireClient`: real sockets,
  /// awaited, with no sleeps.
  @MainActor
  @Suite struct InspectorServerTests {
    func withPage<Result>(
      _ inspector: Inspector<some Any, some Any>,
      _ body: @MainActor (inout WireConnection, [String: Any]) async throws -> Result
    ) async throws -> Result {
      try await withInspectorPage(inspector, body)
    }

    @Test func thePageIsServedWithTheTokenAndRefusedWithout() async throws {
      let store = Store(initialState: Tally.State()) { Tally() }
      let inspector = try await Inspector(store: store)
      let port = inspector.port
      #expect(inspector.url.absoluteString == "http://127.0.0.1:\(port)/?token=\(inspector.token)")

      let page = try await WireClient.request(port: port, target: "/?token=\(inspector.token)")
      #expect(page.status == 200)
      #expect(page.body.contains("<title>Statecraft Inspector</title>"))

      for target in ["/", "/?token=", "/?token=0123", "/export", "/index.html?tokens=x"] {
        let refused = try await WireClient.request(port: port, target: target)
        #expect(refused.status == 403, "\(target)")
        #expect(refused.body.contains("carry its token"), "\(target)")
      }
      let missing = try await WireClient.request(
        port: port, target: "/nothing?token=\(inspector.token)")
      #expect(missing.status == 404)
      await inspector.stop()
    }

    @Test func theSocketIsRefusedWithoutTheTokenOrFromAnotherOrigin() async throws {
      let store = Store(initialState: Tally.State()) { Tally() }
      let inspector = try await Inspector(store: store)
      let port = inspector.port
      let token = inspector.token
      let refused: [(target: String, origin: String?)] = [
        ("/socket?token=\(token)", "http://evil.example"),
        ("/socket?token=\(token)", "http://127.0.0.1:\(port + 1)"),
        ("/socket?token=\(token)", nil),
        ("/socket", "http://127.0.0.1:\(port)"),
        ("/socket?token=wrong", "http://127.0.0.1:\(port)"),
      ]
      for (target, origin) in refused {
        let status = try await WireClient.withConnection(port: port) { connection in
          try await connection.upgrade(port: port, target: target, origin: origin)
        }
        #expect(status == 403, "\(target) from \(origin ?? "no origin")")
      }
      for origin in ["http://127.0.0.1:\(port)", "http://localhost:\(port)"] {
        let status = try await WireClient.withConnection(port: port) { connection in
          try await connection.upgrade(
            port: port, target: "/socket?token=\(token)", origin: origin)
        }
        #expect(status == 101, "\(origin)")
      }
      await inspector.stop()
    }

    @Test func eventsArriveInOrderWithTheirOrigins() async throws {
      let store = Store(initialState: Tally.State()) { Tally() }
      let inspector = try await Inspector(store: store)
      try await withPage(inspector) { page, welcome in
        #expect(welcome["protocol"] as? Int == 3)
        #expect(welcome["feature"] as? String == "Tally")
        let capabilities = welcome["capabilities"] as? [String: Bool]
        #expect(capabilities?["send"] == true)
        #expect(capabilities?["export"] == true)
        #expect(capabilities?["generateTest"] == false)
        store.send(.add(1))
        store.send(.note("hello"))
        await store.send(.fetch).finish()
        store.send(.add(2))
        let steps = try await page.readSteps(count: 6)
        #expect(steps.map { $0["i"] as? Int } == [1, 2, 3, 4, 5, 6])
        #expect(
          steps.map { $0["c"] as? String } == ["add", "note", "fetch", "fetched", "note", "add"])
        #expect(
          steps.map { $0["o"] as? String } == ["send", "send", "send", "effect", "effect", "send"])
        #expect(steps[1]["s"] as? String == #"{"note":{"_0":"hello"}}"#)
      }
      await inspector.stop()
    }

    /// A state holding a shared value (the todos demo's list): each step shows, diffs and
    /// exports the value the shared value had at that step, not the value it has now.
    @Test func aSharedValueInTheStateIsShownAsItWasAtEachStep() async throws {
      let lines = Shared(value: ["a"])
      let store = Store(initialState: SharedNotes.State(lines: lines)) { SharedNotes() }
      let inspector = try await Inspector(store: store)
      let port = inspector.port
      let token = inspector.token
      try await withPage(inspector) { page, _ in
        store.send(.add("b"))
        store.send(.add("c"))
        _ = try await page.readSteps(count: 2)

        try await page.sendText(#"{"type":"detail","step":1}"#)
        let detail = try await page.read(until: "detail").message
        let state = detail["state"] as? [String: Any]
        #expect(state?["lines"] as? [String] == ["a", "b"])
        #expect((detail["diff"] as? String)?.contains("lines[1] (added)\n+ \"b\"") == true)

        let export = try await WireClient.request(port: port, target: "/export?token=\(token)")
        let recording = try RecordingOf<SharedNotes>(jsonData: Data(export.body.utf8))
        #expect(recording.initialState.lines.wrappedValue == ["a"])
        // NB: the export stores the last state, and no state it can recompute.
        #expect(recording.checkpoints.map(\.state.lines.wrappedValue) == [["a", "b", "c"]])
      }
      await inspector.stop()
    }

    @Test func badMessagesAreRejectedAndTheServerKeepsRunning() async throws {
      let store = Store(initialState: Tally.State()) { Tally() }
      let inspector = try await Inspector(
        store: store, configuration: InspectorConfiguration(maximumMessageSize: 256))
      try await withPage(inspector) { page, _ in
        let bad: [(message: String, says: String)] = [
          ("not json", "is not JSON"),
          ("[1, 2]", "not an object with a \"type\""),
          (#"{"type":"fly"}"#, "Unknown message type \"fly\""),
          (#"{"type":"jump"}"#, "needs a \"step\""),
          (#"{"type":"jump","step":99}"#, "There is no step 99"),
          (#"{"type":"send","action":{"add":"one"}}"#, "The action does not decode"),
          (#"{"type":"send"}"#, "needs an \"action\""),
          (#"{"type":"generateTest"}"#, "without a test generator"),
          (String(repeating: " ", count: 1000) + "{}", "at most 256 bytes"),
        ]
        for (message, says) in bad {
          try await page.sendText(message)
          let error = try await page.read(until: "error").message
          #expect((error["message"] as? String)?.contains(says) == true, "\(message.prefix(40))")
        }
        try await page.sendFrame(opcode: 0x2, [1, 2, 3])
        let binary = try await page.read(until: "error").message
        #expect((binary["message"] as? String)?.contains("Binary messages") == true)

        // The same socket still works: an action sent as JSON is reduced.
        try await page.sendText(#"{"type":"send","action":{"add":{"_0":5}}}"#)
        _ = try await page.read(until: "sent")
        #expect(store.state.count == 5)
        let steps = try await page.readSteps(count: 1)
        #expect(steps.first?["c"] as? String == "add")
      }
      // And the server still serves.
      let page = try await WireClient.request(
        port: inspector.port, target: "/?token=\(inspector.token)")
      #expect(page.status == 200)
      await inspector.stop()
    }

    @Test func theExportIsARecordingThatReplaysAndTheImportReplaysIt() async throws {
      let store = Store(initialState: Tally.State(count: 3)) { Tally() }
      let inspector = try await Inspector(store: store)
      inspector.replaysImports(against: Tally())
      let port = inspector.port
      let token = inspector.token
      try await withPage(inspector) { page, welcome in
        #expect((welcome["capabilities"] as? [String: Bool])?["import"] == true)
        store.send(.add(1))
        await store.send(.fetch).finish()
        _ = try await page.readSteps(count: 4)

        let export = try await WireClient.request(port: port, target: "/export?token=\(token)")
        #expect(export.status == 200)
        let recording = try RecordingOf<Tally>(jsonData: Data(export.body.utf8))
        #expect(recording.initialState == Tally.State(count: 3))
        #expect(recording.actions == [.add(1), .fetch, .fetched(100), .note("fetched")])
        #expect(recording.replay(against: Tally()).isReproduced)
        // NB: with each step's origin and time, which a generated test needs.
        #expect(recording.origins.allSatisfy { $0 != nil })
        #expect(recording.times.allSatisfy { $0 != nil })
        let origins = try JSONSerialization.jsonObject(with: Data(export.body.utf8))
        #expect(
          (origins as? [String: Any])?["origins"] as? [String]
            == ["send", "send", "effect", "effect"])

        let reproduced = try await WireClient.request(
          port: port, method: "POST", target: "/import?token=\(token)",
          body: Array(export.body.utf8))
        #expect(reproduced.status == 200)
        #expect(reproduced.body.contains(#""reproduced":true"#))

        let diverging = try await WireClient.request(
          port: port, method: "POST", target: "/import?token=\(token)",
          body: Array(
            export.body.replacingOccurrences(of: #"["fetched"]"#, with: #"["edited"]"#).utf8))
        #expect(diverging.body.contains(#""reproduced":false"#))
        #expect(diverging.body.contains(#""step":4"#))
        #expect(diverging.body.contains("diverged at step 4 of 4"))

        let broken = try await WireClient.request(
          port: port, method: "POST", target: "/import?token=\(token)",
          body: Array("{\"formatVersion\": 1".utf8))
        #expect(broken.status == 400)
        #expect(broken.body.contains("cut short"))
      }
      await inspector.stop()
    }

    @Test func generateTestCallsTheGeneratorWithTheExportedSession() async throws {
      let store = Store(initialState: Tally.State()) { Tally() }
      var configuration = InspectorConfiguration()
      configuration.generateTest = { data in
        let recording = try RecordingOf<Tally>(jsonData: data)
        return "// \(recording.stepCount) steps, adds 7: \(recording.actions == [.add(7)])"
      }
      let inspector = try await Inspector(store: store, configuration: configuration)
      try await withPage(inspector) { page, welcome in
        #expect((welcome["capabilities"] as? [String: Bool])?["generateTest"] == true)
        store.send(.add(7))
        _ = try await page.readSteps(count: 1)
        try await page.sendText(#"{"type":"generateTest"}"#)
        let generated = try await page.read(until: "generatedTest").message
        #expect(generated["source"] as? String == "// 1 steps, adds 7: true")
      }
      await inspector.stop()
    }

    @Test func aPortInUseIsReportedWithTheFix() async throws {
      let store = Store(initialState: Tally.State()) { Tally() }
      let first = try await Inspector(store: store)
      await #expect {
        _ = try await Inspector(
          store: store, configuration: InspectorConfiguration(port: first.port))
      } throws: { error in
        guard case .couldNotBind(let port, _) = error as? InspectorError else { return false }
        return port == first.port && "\(error)".contains("Pick another port")
      }
      await first.stop()
    }

    @Test func theInspectorDoesNotKeepTheStoreAlive() async throws {
      weak var released: Store<Tally.State, Tally.Action>?
      var inspector: Inspector<Tally.State, Tally.Action>?
      do {
        let store = Store(initialState: Tally.State()) { Tally() }
        released = store
        inspector = try await Inspector(store: store)
      }
      #expect(released == nil)
      await inspector?.stop()
    }

    @Test func withNoPageTheStoreHasNoObserver() async throws {
      let store = Store(initialState: Tally.State()) { Tally() }
      let inspector = try await Inspector(store: store)
      store.send(.add(1))
      #expect(!inspector.session.isRecording)
      try await withPage(inspector) { page, welcome in
        #expect(inspector.session.isRecording)
        #expect(welcome["stepCount"] as? Int == 0)
        store.send(.add(1))
        let steps = try await page.readSteps(count: 1)
        #expect(steps.first?["i"] as? Int == 1)
        try await page.sendText(#"{"type":"detail","step":0}"#)
        let detail = try await page.read(until: "detail").message
        #expect((detail["state"] as? [String: Any])?["count"] as? Int == 1)
        try await page.sendFrame(opcode: 0x8, [0x03, 0xE8])
        _ = try await page.readToEnd()
      }
      // NB: the session learns that the page left when the socket's stream ends.
      await inspector.session.waitForPageCount(0)
      #expect(!inspector.session.isRecording)
      await inspector.stop()
    }
  }
}
