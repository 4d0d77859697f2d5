import ConcurrencyExtras
import Foundation
import NIOCore
import NIOEmbedded
import Testing

@testable import StatecraftInspector

extension Engine {
  /// The server's deadlines, on an `EmbeddedChannel` whose clock the test moves: the connection's
  /// real pipeline, fed raw bytes, with no waiting.
  @MainActor
  @Suite struct InspectorDeadlineTests {
    let port = 4242
    let token = "t0k3n"
    let pages = LockIsolated<[PageConnection]>([])

    func connect(_ limits: InspectorServerLimits = InspectorServerLimits()) throws
      -> EmbeddedChannel
    {
      let channel = EmbeddedChannel()
      let pages = self.pages
      let routes = InspectorRoutes(
        token: token, page: "<title>page</title>", maximumMessageSize: 1 << 20,
        maximumImportSize: 1_000, export: { .text(.ok, "{}") },
        importSession: { _ in .text(.ok, "imported") },
        pageConnected: { connection in pages.withValue { $0.append(connection) } })
      try InspectorServer.configure(channel, routes: routes, port: port, limits: limits)
      channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 50_000), promise: nil)
      return channel
    }

    /// Closes `channel` if the server didn't, so that its pipeline, which holds the channel, is
    /// torn down (an embedded channel left open is a reference cycle).
    func finish(_ channel: EmbeddedChannel) {
      _ = try? channel.finish(acceptAlreadyClosed: true)
    }

    func send(_ text: String, to channel: EmbeddedChannel) throws {
      try channel.writeInbound(ByteBuffer(string: text))
    }

    /// What the server wrote so far, as text.
    func written(by channel: EmbeddedChannel) throws -> String {
      var text = ""
      while let buffer = try channel.readOutbound(as: ByteBuffer.self) {
        text += String(buffer: buffer)
      }
      return text
    }

    @Test func theHeadsDeadlineCountsFromTheConnectionNotFromTheLastByte() throws {
      let channel = try connect()
      defer { finish(channel) }
      let loop = channel.embeddedEventLoop
      loop.advanceTime(by: .seconds(4))
      try send("GET /?token=\(token) HTTP/1.1\r\n", to: channel)
      loop.advanceTime(by: .seconds(4))
      try send("Host: 127.0.0.1:\(port)\r\n", to: channel)
      loop.advanceTime(by: .milliseconds(1_999))
      #expect(channel.isActive)
      #expect(try written(by: channel).isEmpty)

      loop.advanceTime(by: .milliseconds(1))
      let answer = try written(by: channel)
      #expect(answer.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
      #expect(answer.contains("did not arrive within 10 s of connecting"))
      #expect(!channel.isActive)
    }

    @Test func aBodyThatKeepsComingOutlivesTheHeadsDeadlineAndOneThatPausesIsClosed() throws {
      let channel = try connect()
      defer { finish(channel) }
      let loop = channel.embeddedEventLoop
      var head = "POST /import?token=\(token) HTTP/1.1\r\nHost: localhost:\(port)\r\n"
      head += "Content-Length: 30\r\n\r\n"
      try send(head, to: channel)
      for _ in 0..<2 {
        loop.advanceTime(by: .seconds(29))
        try send(String(repeating: "x", count: 10), to: channel)
      }
      loop.advanceTime(by: .milliseconds(29_999))
      #expect(channel.isActive)
      #expect(try written(by: channel).isEmpty)

      loop.advanceTime(by: .milliseconds(1))
      let answer = try written(by: channel)
      #expect(answer.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
      #expect(answer.contains("the body paused for more than 30 s"))
      #expect(!channel.isActive)
    }

    @Test func theTimeoutsAreTheConfigurations() throws {
      let configuration = InspectorConfiguration(
        maximumConnections: 0, requestHeadTimeout: .milliseconds(250),
        idleTimeout: .seconds(-1))
      let limits = InspectorServerLimits(configuration)
      #expect(limits.maximumConnections == 1)
      #expect(limits.idleTimeout == .nanoseconds(1))
      let channel = try connect(limits)
      defer { finish(channel) }
      channel.embeddedEventLoop.advanceTime(by: .milliseconds(249))
      #expect(channel.isActive)
      channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
      #expect(try written(by: channel).contains("within 250 ms of connecting"))
      #expect(!channel.isActive)
    }

    @Test func anOpenPagesSocketIsNeverTimedOut() async throws {
      let channel = try connect()
      defer { finish(channel) }
      let loop = channel.embeddedEventLoop
      var upgrade = "GET /socket?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
      upgrade += "Upgrade: websocket\r\nConnection: Upgrade\r\n"
      upgrade += "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
      upgrade += "Origin: http://127.0.0.1:\(port)\r\n\r\n"
      try send(upgrade, to: channel)
      loop.run()
      #expect(try written(by: channel).hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"))
      let page = try #require(pages.value.first)

      loop.advanceTime(by: .hours(1))
      #expect(channel.isActive)
      try channel.writeInbound(
        ByteBuffer(bytes: WireConnection.frame(opcode: 0x1, Array(#"{"type":"resume"}"#.utf8))))
      var messages = page.messages.makeAsyncIterator()
      guard case .text(let text) = await messages.next() else {
        Issue.record("the page's message did not arrive")
        return
      }
      #expect(text == #"{"type":"resume"}"#)
      #expect(channel.isActive)
    }
  }
}
