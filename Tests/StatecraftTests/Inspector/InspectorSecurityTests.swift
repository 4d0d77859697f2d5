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

    // MARK: - HTTP: the order of the checks

    /// Each request announces a 60 MB body and sends none of it: its answer can only arrive if
    /// the server decided from the head alone, without waiting for (or holding) the body.
    @Test func aRequestIsAnsweredFromItsHeadBeforeAnyOfItsBodyIsRead() async throws {
      let (_, inspector) = try await makeInspector(
        InspectorConfiguration(maximumImportSize: 1_000))
      let port = inspector.port
      let token = inspector.token
      let here = "127.0.0.1:\(port)"
      let evil = "evil.example:\(port)"
      let refusals: [(method: String, target: String, host: String, status: Int, says: String)] = [
        ("POST", "/import", here, 403, "carry its token"),
        ("POST", "/import?token=wrong", here, 403, "carry its token"),
        ("PUT", "/import?token=\(token)", here, 405, "PUT is not allowed on /import"),
        ("POST", "/export?token=\(token)", here, 405, "POST is not allowed on /export"),
        ("POST", "/import?token=\(token)", evil, 421, "127.0.0.1:\(port) or localhost:\(port)"),
        ("POST", "/import?token=\(token)", here, 413, "at most 1000 bytes"),
        ("GET", "/?token=\(token)", here, 413, "takes no body"),
        // The order: the method before the Host, the Host before the token, the token before
        // the size.
        ("PUT", "/import", evil, 405, "PUT is not allowed"),
        ("POST", "/import", evil, 421, "localhost:\(port)"),
        ("POST", "/import", here, 403, "carry its token"),
      ]
      for refusal in refusals {
        let response = try await WireClient.withConnection(port: port) { connection in
          var head = "\(refusal.method) \(refusal.target) HTTP/1.1\r\nHost: \(refusal.host)\r\n"
          head += "Content-Type: application/json\r\nContent-Length: 60000000\r\n\r\n"
          try await connection.send(Array(head.utf8))
          return try await connection.readResponse()
        }
        let label = "\(refusal.method) \(refusal.target) to \(refusal.host)"
        #expect(response.status == refusal.status, "\(label)")
        #expect(response.body.contains(refusal.says), "\(label): \(response.body)")
      }
      await inspector.stop()
    }

    @Test func aChunkedBodyIsCutOffWhenItPassesTheLimit() async throws {
      let (_, inspector) = try await makeInspector(
        InspectorConfiguration(maximumImportSize: 1_000))
      let port = inspector.port
      let response = try await WireClient.withConnection(port: port) { connection in
        var head = "POST /import?token=\(inspector.token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        head += "Transfer-Encoding: chunked\r\n\r\n"
        try await connection.send(Array(head.utf8))
        // NB: 1,200 bytes in two chunks, and never the last chunk: the answer comes from the
        // count alone.
        let chunk = Array("258\r\n".utf8) + Array(repeating: UInt8(ascii: " "), count: 600)
        try await connection.send(chunk + Array("\r\n".utf8))
        try await connection.send(chunk + Array("\r\n".utf8))
        return try await connection.readResponse()
      }
      #expect(response.status == 413)
      #expect(response.body.contains("at most 1000 bytes"))
      await inspector.stop()
    }

    @Test func aWrongHostIsRefusedEvenWithTheToken() async throws {
      let (_, inspector) = try await makeInspector()
      let port = inspector.port
      let token = inspector.token
      let wrong: [String?] = [
        "evil.example:\(port)", "127.0.0.1", "localhost", "127.0.0.1:\(port + 1)",
        "127.0.0.1:\(port).evil.example", "127.0.0.2:\(port)", nil,
      ]
      for host in wrong {
        for (method, target) in [
          ("GET", "/?token=\(token)"), ("GET", "/export?token=\(token)"),
          ("POST", "/import?token=\(token)"),
        ] {
          let response = try await WireClient.request(
            port: port, method: method, target: target, host: host)
          #expect(response.status == 421, "\(method) \(target) to \(host ?? "no Host")")
        }
        // The socket too, with the token and the page's own Origin.
        let status = try await WireClient.withConnection(port: port) { connection in
          try await connection.upgrade(
            port: port, target: "/socket?token=\(token)", origin: "http://127.0.0.1:\(port)",
            host: host ?? "")
        }
        #expect(status == 421, "the socket to \(host ?? "no Host")")
      }
      for host in ["127.0.0.1:\(port)", "localhost:\(port)"] {
        let page = try await WireClient.request(port: port, target: "/?token=\(token)", host: host)
        #expect(page.status == 200, "\(host)")
      }
      await inspector.stop()
    }

    // MARK: - Connections

    @Test func connectionsPastTheCapAreRefusedAtOnceAndASlotFreesWhenOneCloses() async throws {
      let (store, inspector) = try await makeInspector(
        InspectorConfiguration(maximumConnections: 2))
      let port = inspector.port
      let token = inspector.token
      try await withInspectorPage(inspector) { _, _ in
        try await withInspectorPage(inspector) { _, _ in
          // NB: two pages hold both slots; the third connection is refused before it sends a
          // byte.
          let refused = try await WireClient.withConnection(port: port) { connection in
            try await connection.readResponse()
          }
          #expect(refused.status == 503)
          #expect(refused.body.contains("2 connections"))
        }
        // NB: the slot is given back before the session hears that the page left.
        await inspector.session.waitForPageCount(1)
        let page = try await WireClient.request(port: port, target: "/?token=\(token)")
        #expect(page.status == 200)
      }
      await inspector.stop()
      withExtendedLifetime(store) {}
    }

    @Test func aConnectionThatDoesNotFinishItsHeadInTimeIsAnswered408AndClosed() async throws {
      let (_, inspector) = try await makeInspector(
        InspectorConfiguration(requestHeadTimeout: .milliseconds(50)))
      let port = inspector.port
      // One that sends nothing, and one that stops in the middle of its headers.
      for start in ["", "GET /?token=\(inspector.token) HTTP/1.1\r\nHost: 127"] {
        let response = try await WireClient.withConnection(port: port) { connection in
          try await connection.send(Array(start.utf8))
          return try await connection.readResponse()
        }
        #expect(response.status == 408, "after \(start.debugDescription)")
        #expect(response.body.contains("headers"))
      }
      let page = try await WireClient.request(port: port, target: "/?token=\(inspector.token)")
      #expect(page.status == 200)
      await inspector.stop()
    }

    // MARK: - The socket

    @Test func anUnmaskedFrameClosesTheSocketWithAProtocolError() async throws {
      let (store, inspector) = try await makeInspector()
      try await withInspectorPage(inspector) { page, _ in
        try await page.sendFrame(
          opcode: 0x1, Array(#"{"type":"send","action":{"add":{"_0":5}}}"#.utf8), masked: false)
        // NB: the welcome's timeline comes first.
        var close = try await page.readFrame()
        while close.opcode == 0x1 { close = try await page.readFrame() }
        #expect(close.opcode == 0x8)
        #expect(close.payload.prefix(2) == [0x03, 0xEA])  // 1002
        _ = try await page.readToEnd()
      }
      #expect(store.state.count == 0)
      await inspector.session.waitForPageCount(0)
      await inspector.stop()
    }

    @Test func aTextMessageThatIsNotUTF8ClosesTheSocketWithInvalidData() async throws {
      let (store, inspector) = try await makeInspector()
      for payload: [UInt8] in [
        [0x7B, 0xFF, 0x7D],  // a byte that is never UTF-8
        [0x22, 0xED, 0xA0, 0x80, 0x22],  // a surrogate
        [0x22, 0xC0, 0xAF, 0x22],  // an overlong "/"
        [0x22, 0xE2, 0x82],  // cut short
      ] {
        try await withInspectorPage(inspector) { page, _ in
          try await page.sendFrame(opcode: 0x1, payload)
          // NB: the welcome's timeline comes first.
          var close = try await page.readFrame()
          while close.opcode == 0x1 { close = try await page.readFrame() }
          #expect(close.opcode == 0x8, "\(payload)")
          #expect(close.payload.prefix(2) == [0x03, 0xEF], "\(payload)")  // 1007
          _ = try await page.readToEnd()
        }
      }
      // Valid UTF-8 beyond ASCII is read as it was sent.
      try await withInspectorPage(inspector) { page, _ in
        try await page.sendText(#"{"type":"send","action":{"note":{"_0":"héllo ✓ 🎉"}}}"#)
        _ = try await page.read(until: "sent")
        let steps = try await page.readSteps(count: 1)
        #expect(steps.first?["s"] as? String == #"{"note":{"_0":"héllo ✓ 🎉"}}"#)
      }
      #expect(store.state.notes == ["héllo ✓ 🎉"])
      await inspector.stop()
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
