import Foundation
import Statecraft
import Testing

@testable import StatecraftInspector

extension Engine {
  /// The faults of the second hostile pass, at the level a client sees them: a real server on
  /// loopback, driven byte by byte by `WireClient`, each answer awaited with no sleeps.
  @MainActor
  @Suite struct InspectorProtocolTests {
    func makeInspector(
      _ configuration: InspectorConfiguration = InspectorConfiguration()
    ) async throws -> (Store<Tally.State, Tally.Action>, Inspector<Tally.State, Tally.Action>) {
      let store = Store(initialState: Tally.State()) { Tally() }
      let inspector = try await Inspector(store: store, configuration: configuration)
      inspector.replaysImports(against: Tally())
      return (store, inspector)
    }

    // MARK: - HTTP

    /// The parser's 400 says "Connection: close": the connection closes, instead of staying
    /// open until the head's deadline answers 408 after it.
    @Test func aRequestTheParserCantReadIsAnswered400AndClosed() async throws {
      // NB: a deadline short enough that a connection left open would get its 408 within the
      // test, and long enough that a loaded machine reads the request before it.
      let (_, inspector) = try await makeInspector(
        InspectorConfiguration(requestHeadTimeout: .seconds(2)))
      let response = try await WireClient.withConnection(port: inspector.port) { connection in
        try await connection.send(Array("NOT A REQUEST\r\n\r\n".utf8))
        return try await connection.readResponse()
      }
      #expect(response.status == 400)
      #expect(response.body.isEmpty, "after the 400: \(response.body.debugDescription)")
      await inspector.stop()
    }

    /// A local process that holds every slot with connections that never show the token can't
    /// keep a page out: a newcomer takes the oldest unproven connection's slot.
    @Test func connectionsWithoutTheTokenCantKeepAPageOut() async throws {
      // NB: a head deadline far past the test, so that only the eviction can close the silent
      // connections (a 408 would free a slot too, on a slow machine, and hide a fault).
      let (store, inspector) = try await makeInspector(
        InspectorConfiguration(maximumConnections: 2, requestHeadTimeout: .seconds(3_600)))
      let port = inspector.port
      // NB: each connection is admitted before the next opens: connections on different event
      // loops are admitted in any order, and the one evicted must be `first`.
      try await WireClient.withConnection(port: port) { first in
        await inspector.server.connections.waitForAdmissions(1)
        try await WireClient.withConnection(port: port) { _ in
          await inspector.server.connections.waitForAdmissions(2)
          // NB: both slots are held by connections that send nothing.
          try await withInspectorPage(inspector) { page, _ in
            store.send(.add(1))
            let steps = try await page.readSteps(count: 1)
            #expect(steps.count == 1)
          }
        }
        // The oldest silent connection gave its slot up, and was closed.
        let rest = try await first.readToEnd()
        #expect(rest.isEmpty)
      }
      await inspector.stop()
    }

    /// A socket with two Origin headers is refused, whatever the first says; an import that
    /// carries a foreign Origin (a site that learned the token) is refused before its body.
    @Test func originsAreCheckedOnTheSocketAndTheImport() async throws {
      let (store, inspector) = try await makeInspector()
      let port = inspector.port
      let own = "http://127.0.0.1:\(port)"
      let status = try await WireClient.withConnection(port: port) { connection in
        var request = "GET /socket?token=\(inspector.token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        request += "Upgrade: websocket\r\nConnection: Upgrade\r\n"
        request += "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        request += "Origin: \(own)\r\nOrigin: http://evil.example\r\n\r\n"
        try await connection.send(Array(request.utf8))
        return try await connection.readResponse().status
      }
      #expect(status == 403)
      for (origins, expected) in [
        (["http://evil.example"], 403), ([own, own], 403), ([own], 400), ([String](), 400),
      ] {
        let response = try await WireClient.withConnection(port: port) { connection in
          var head = "POST /import?token=\(inspector.token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
          for origin in origins { head += "Origin: \(origin)\r\n" }
          head += "Content-Length: 2\r\n\r\n{}"
          try await connection.send(Array(head.utf8))
          return try await connection.readResponse()
        }
        // NB: 400 is the import's own answer to an empty object: the Origin was let through.
        #expect(response.status == expected, "\(origins): \(response.body)")
        if expected == 403 { #expect(response.body.contains("Origin")) }
      }
      #expect(store.state.count == 0)
      await inspector.stop()
    }

    /// The policy names the page's one script by its hash: no other inline script runs.
    @Test func theContentSecurityPolicyAllowsThePagesScriptByItsHashOnly() async throws {
      #expect(
        SHA256.digest(Array("abc".utf8)).map { String($0, radix: 16) }.joined()
          == "ba7816bf8f1cfea414140de5dae2223b0361a396177a9cb410ff61f2015ad")
      #expect(SHA256.digest([UInt8](repeating: 0x61, count: 1_000)).count == 32)
      let (_, inspector) = try await makeInspector()
      let port = inspector.port
      let head = try await WireClient.withConnection(port: port) { connection in
        let request = "GET /?token=\(inspector.token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"
        try await connection.send(Array(request.utf8))
        let head = try await connection.readHead()
        _ = try await connection.readToEnd()
        return head
      }
      let policy = try #require(
        head.split(separator: "\r\n").first { $0.hasPrefix("Content-Security-Policy:") })
      let hash = Data(SHA256.digest(Array(InspectorPage.script.utf8))).base64EncodedString()
      #expect(policy.contains("script-src 'sha256-\(hash)';"))
      #expect(!policy.contains("script-src 'unsafe-inline'"))
      #expect(InspectorPage.script.count > 1_000)
      #expect(!InspectorPage.script.contains("<script"))
      await inspector.stop()
    }

    // MARK: - The socket

    /// Frames RFC 6455 forbids a client fail the socket with 1002; a close with a code no peer
    /// may send is answered with 1002, not echoed.
    @Test func framesThatBreakTheProtocolCloseTheSocketWith1002() async throws {
      let (store, inspector) = try await makeInspector()
      let text = Array(#"{"type":"send","action":{"add":{"_0":5}}}"#.utf8)
      func notFinal(_ bytes: [UInt8]) -> [UInt8] { [bytes[0] & 0x7F] + bytes.dropFirst() }
      let faults: [(String, [UInt8])] = [
        ("RSV1 set", WireConnection.frame(opcode: 0x40 | 0x1, text)),
        ("RSV3 set", WireConnection.frame(opcode: 0x10 | 0x1, text)),
        ("opcode 3", WireConnection.frame(opcode: 0x3, text)),
        ("opcode 11", WireConnection.frame(opcode: 0xB, [])),
        ("an orphan continuation", WireConnection.frame(opcode: 0x0, text)),
        (
          "a text frame inside a fragmented message",
          notFinal(WireConnection.frame(opcode: 0x1, Array(text.prefix(5))))
            + WireConnection.frame(opcode: 0x1, text)
        ),
        ("a fragmented ping", notFinal(WireConnection.frame(opcode: 0x9, []))),
        ("a close with code 999", WireConnection.frame(opcode: 0x8, [0x03, 0xE7])),
        ("a close with code 1005", WireConnection.frame(opcode: 0x8, [0x03, 0xED])),
        ("a close with one byte", WireConnection.frame(opcode: 0x8, [0x03])),
      ]
      for (label, bytes) in faults {
        try await withInspectorPage(inspector) { page, _ in
          try await page.send(bytes)
          var close = try await page.readFrame()
          while close.opcode == 0x1 { close = try await page.readFrame() }
          #expect(close.opcode == 0x8, "\(label)")
          #expect(close.payload.prefix(2) == [0x03, 0xEA], "\(label): \(close.payload)")
          _ = try await page.readToEnd()
        }
      }
      // A valid close code is echoed, as before.
      try await withInspectorPage(inspector) { page, _ in
        try await page.sendFrame(opcode: 0x8, [0x0F, 0xA0])  // 4000
        var close = try await page.readFrame()
        while close.opcode == 0x1 { close = try await page.readFrame() }
        #expect(close.payload.prefix(2) == [0x0F, 0xA0])
        _ = try await page.readToEnd()
      }
      #expect(store.state.count == 0)
      await inspector.stop()
    }

    /// A message in more fragments than the socket joins fails it with 1009, instead of being
    /// dropped without a word; one at the limit is read.
    @Test func aMessageInTooManyFragmentsClosesTheSocketWith1009() async throws {
      let (store, inspector) = try await makeInspector()
      // NB: the limit, `ClientFrameCheck.maximumFragments`.
      let limit = 1 << 16
      func message(fragments: Int) -> [UInt8] {
        let text = Array(#"{"type":"send","action":{"add":{"_0":1}}}"#.utf8)
        var bytes = [UInt8]()
        bytes.reserveCapacity(fragments * 6 + text.count)
        let first = WireConnection.frame(opcode: 0x1, text)
        bytes += [first[0] & 0x7F] + first.dropFirst()
        let empty = WireConnection.frame(opcode: 0x0, [])
        let middle = [empty[0] & 0x7F] + empty.dropFirst()
        for _ in 0..<(fragments - 2) { bytes += middle }
        bytes += empty
        return bytes
      }
      try await withInspectorPage(inspector) { page, _ in
        try await page.send(message(fragments: limit))
        _ = try await page.read(until: "sent")
      }
      #expect(store.state.count == 1)
      try await withInspectorPage(inspector) { page, _ in
        try await page.send(message(fragments: limit + 1))
        var close = try await page.readFrame()
        while close.opcode == 0x1 { close = try await page.readFrame() }
        #expect(close.opcode == 0x8)
        #expect(close.payload.prefix(2) == [0x03, 0xF1])  // 1009
        _ = try await page.readToEnd()
      }
      #expect(store.state.count == 1)
      await inspector.stop()
    }
  }
}
