import Foundation
import NIOCore
import NIOPosix
import StatecraftInspector
import Synchronization
import Testing

/// A loopback client that speaks HTTP and WebSocket at the byte level, so that tests can send
/// what a browser sends, and what it never would (a wrong Origin, an oversized or binary frame).
enum WireClient {
  /// Connects to 127.0.0.1 at `port` and runs `body` with the connection, closing it after.
  ///
  /// NB: a failure guard, not a timing assertion: the connection is closed after 30 s, so that a
  /// test waiting for something that never comes fails instead of hanging. The guard's close
  /// is an error, even when the body took it for the server's: a read to the end would
  /// otherwise pass on a connection the server never closed.
  @MainActor
  static func withConnection<Result>(
    port: Int, _ body: @MainActor (inout WireConnection) async throws -> Result
  ) async throws -> Result {
    let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .connect(host: "127.0.0.1", port: port) { channel in
        channel.eventLoop.makeCompletedFuture {
          try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
        }
      }
    let underlying = channel.channel
    let guardFired = GuardFlag()
    let guardTask = underlying.eventLoop.scheduleTask(in: .seconds(30)) {
      guardFired.fired.store(true, ordering: .relaxed)
      underlying.close(promise: nil)
    }
    defer { guardTask.cancel() }
    let result = try await channel.executeThenClose { inbound, outbound in
      var connection = WireConnection(iterator: inbound.makeAsyncIterator(), outbound: outbound)
      return try await body(&connection)
    }
    if guardFired.fired.load(ordering: .relaxed) {
      throw WireError(
        description:
          "the test's 30 s guard closed the connection: what the test waited for never came")
    }
    return result
  }

  /// Whether a connection's guard closed it.
  private final class GuardFlag: Sendable {
    let fired = Atomic(false)
  }

  /// An HTTP request's status and body (the server closes the connection after answering).
  ///
  /// `host` is the `Host` header (`127.0.0.1:PORT` unless given; nil sends none).
  @MainActor
  static func request(
    port: Int, method: String = "GET", target: String, host: String? = "",
    body: [UInt8] = []
  ) async throws -> (status: Int, body: String) {
    try await withConnection(port: port) { connection in
      var request = "\(method) \(target) HTTP/1.1\r\n"
      if let host { request += "Host: \(host.isEmpty ? "127.0.0.1:\(port)" : host)\r\n" }
      request += "Content-Length: \(body.count)\r\n\r\n"
      try await connection.send(Array(request.utf8) + body)
      return try await connection.readResponse()
    }
  }
}

struct WireError: Error, CustomStringConvertible {
  let description: String
}

/// One connection of ``WireClient``.
@MainActor
struct WireConnection {
  var iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
  let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
  var pending: [UInt8] = []

  init(
    iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator,
    outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
  ) {
    self.iterator = iterator
    self.outbound = outbound
  }

  func send(_ bytes: [UInt8]) async throws {
    try await outbound.write(ByteBuffer(bytes: bytes))
  }

  /// Reads more bytes; false at the end of the connection.
  private mutating func fill() async throws -> Bool {
    // NB: a stored iterator can't be advanced across a suspension in place.
    var iterator = self.iterator
    let chunk = try await iterator.next(isolation: #isolation)
    self.iterator = iterator
    guard let chunk else { return false }
    pending += Array(chunk.readableBytesView)
    return true
  }

  /// Reads an HTTP response's head (up to the blank line).
  mutating func readHead() async throws -> String {
    let end = Array("\r\n\r\n".utf8)
    while true {
      if let range = pending.firstRange(of: end) {
        let head = String(decoding: pending[..<range.lowerBound], as: UTF8.self)
        pending.removeSubrange(..<range.upperBound)
        return head
      }
      guard try await fill() else {
        throw WireError(description: "the connection ended before the response's head")
      }
    }
  }

  /// Reads until the server closes the connection.
  mutating func readToEnd() async throws -> [UInt8] {
    while try await fill() {}
    defer { pending = [] }
    return pending
  }

  /// Reads a response the server ends by closing the connection: its status and its body.
  mutating func readResponse() async throws -> (status: Int, body: String) {
    let head = try await readHead()
    let rest = try await readToEnd()
    return (Self.status(of: head), String(decoding: rest, as: UTF8.self))
  }

  static func status(of head: String) -> Int {
    let parts = head.split(separator: " ", maxSplits: 2)
    return parts.count > 1 ? Int(parts[1]) ?? 0 : 0
  }

  /// Asks for a WebSocket upgrade; returns the response's status (101 when upgraded).
  mutating func upgrade(
    port: Int, target: String, origin: String?, host: String? = nil
  ) async throws -> Int {
    var request = "GET \(target) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\n"
    request += "Upgrade: websocket\r\nConnection: Upgrade\r\n"
    request += "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
    if let origin { request += "Origin: \(origin)\r\n" }
    request += "\r\n"
    try await send(Array(request.utf8))
    return Self.status(of: try await readHead())
  }

  /// Sends one frame, masked as a browser sends it unless `masked` is false (which RFC 6455
  /// forbids a client).
  func sendFrame(opcode: UInt8, _ payload: [UInt8], masked: Bool = true) async throws {
    try await send(Self.frame(opcode: opcode, payload, masked: masked))
  }

  /// The bytes of one final frame from a client.
  static func frame(opcode: UInt8, _ payload: [UInt8], masked: Bool = true) -> [UInt8] {
    let maskBit: UInt8 = masked ? 0x80 : 0
    var frame: [UInt8] = [0x80 | opcode]
    if payload.count < 126 {
      frame.append(maskBit | UInt8(payload.count))
    } else if payload.count <= 0xFFFF {
      frame.append(maskBit | 126)
      frame += [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
    } else {
      frame.append(maskBit | 127)
      frame += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
    }
    guard masked else { return frame + payload }
    let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
    frame += mask
    frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    return frame
  }

  func sendText(_ text: String) async throws {
    try await sendFrame(opcode: 0x1, Array(text.utf8))
  }

  /// Reads one frame from the server (unmasked).
  mutating func readFrame() async throws -> (opcode: UInt8, payload: [UInt8]) {
    func need(_ count: Int) async throws {
      while pending.count < count {
        guard try await fill() else {
          throw WireError(description: "the connection ended in the middle of a frame")
        }
      }
    }
    try await need(2)
    let opcode = pending[0] & 0x0F
    var length = Int(pending[1] & 0x7F)
    var offset = 2
    if length == 126 {
      try await need(4)
      length = Int(pending[2]) << 8 | Int(pending[3])
      offset = 4
    } else if length == 127 {
      try await need(10)
      length = (2..<10).reduce(0) { $0 << 8 | Int(pending[$1]) }
      offset = 10
    }
    try await need(offset + length)
    let payload = Array(pending[offset..<(offset + length)])
    pending.removeSubrange(..<(offset + length))
    return (opcode, payload)
  }

  /// Reads the next text message as a JSON object.
  mutating func readMessage() async throws -> [String: Any] {
    while true {
      let frame = try await readFrame()
      guard frame.opcode == 0x1 else {
        if frame.opcode == 0x8 { throw WireError(description: "the server closed the socket") }
        continue
      }
      guard
        let object = try JSONSerialization.jsonObject(with: Data(frame.payload))
          as? [String: Any]
      else { throw WireError(description: "a message is not a JSON object") }
      return object
    }
  }

  /// Reads messages until one of `type`, and returns its text as it came.
  mutating func readText(until type: String) async throws -> String {
    while true {
      let frame = try await readFrame()
      guard frame.opcode == 0x1 else {
        if frame.opcode == 0x8 { throw WireError(description: "the server closed the socket") }
        continue
      }
      let object = try JSONSerialization.jsonObject(with: Data(frame.payload)) as? [String: Any]
      if object?["type"] as? String == type {
        return String(decoding: frame.payload, as: UTF8.self)
      }
    }
  }

  /// Reads messages until one of `type`; the ones before are returned too, in order.
  mutating func read(until type: String) async throws -> (
    message: [String: Any], before: [[String: Any]]
  ) {
    var before: [[String: Any]] = []
    while true {
      let message = try await readMessage()
      if message["type"] as? String == type { return (message, before) }
      before.append(message)
    }
  }

  /// Reads `steps` messages until `count` steps have come; returns them in order.
  mutating func readSteps(count: Int) async throws -> [[String: Any]] {
    var steps: [[String: Any]] = []
    while steps.count < count {
      let message = try await readMessage()
      if message["type"] as? String == "steps" {
        steps += message["steps"] as? [[String: Any]] ?? []
      }
    }
    return steps
  }
}

/// Opens a page's socket with the token and the Origin of a page served from `host`, reads the
/// welcome, and runs `body` with it.
@MainActor
func withInspectorPage<Result>(
  _ inspector: Inspector<some Any, some Any>,
  host: String = "127.0.0.1",
  _ body: @MainActor (inout WireConnection, [String: Any]) async throws -> Result
) async throws -> Result {
  let port = inspector.port
  return try await WireClient.withConnection(port: port) { connection in
    let status = try await connection.upgrade(
      port: port, target: "/socket?token=\(inspector.token)", origin: "http://\(host):\(port)")
    try #require(status == 101)
    let welcome = try await connection.readMessage()
    try #require(welcome["type"] as? String == "welcome")
    return try await body(&connection, welcome)
  }
}
