// Owns the Inspector's loopback server, on SwiftNIO: the HTTP routes (the page, the session's
// export and import), the token every request must carry, the WebSocket upgrade with its Origin
// check, and the limits on what a page may send. It knows nothing of stores: what a route or a
// socket message does is the session's (InspectorSession.swift), reached on the main actor.
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// An HTTP response the routes give.
struct InspectorResponse: Sendable {
  var status: HTTPResponseStatus
  var contentType: String
  var body: [UInt8]

  static func text(_ status: HTTPResponseStatus, _ text: String) -> InspectorResponse {
    InspectorResponse(
      status: status, contentType: "text/plain; charset=utf-8", body: Array((text + "\n").utf8))
  }

  static func json(_ status: HTTPResponseStatus, _ data: Data) -> InspectorResponse {
    InspectorResponse(status: status, contentType: "application/json", body: Array(data))
  }
}

/// What the server does with requests and pages: given by the session, called off the main
/// actor.
struct InspectorRoutes: Sendable {
  let token: String
  let page: String
  /// The largest socket message a page may send, in bytes.
  let maximumMessageSize: Int
  /// The largest imported session, in bytes.
  let maximumImportSize: Int
  let export: @Sendable () async -> InspectorResponse
  let importSession: @Sendable ([UInt8]) async -> InspectorResponse
  /// Called on the connection's event loop once a page's socket is open.
  let pageConnected: @Sendable (PageConnection) -> Void
}

/// The server: bound to 127.0.0.1 until ``close()``.
final class InspectorServer: Sendable {
  let port: Int
  private let channel: any Channel

  private init(port: Int, channel: any Channel) {
    self.port = port
    self.channel = channel
  }

  /// Binds a server on 127.0.0.1 at `port` (0: any free port).
  static func start(port: Int, routes: @escaping @Sendable (Int) -> InspectorRoutes) async throws
    -> InspectorServer
  {
    // NB: the routes need the port (the Origin a page has), known from each connection's
    // local address.
    let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .serverChannelOption(.backlog, value: 16)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          let localPort = channel.localAddress?.port ?? 0
          try configure(channel, routes: routes(localPort), port: localPort)
        }
      }
    let channel = try await bootstrap.bind(host: "127.0.0.1", port: port).get()
    guard let boundPort = channel.localAddress?.port else {
      try? await channel.close()
      throw InspectorError.couldNotBind(port: port, reason: "it has no port after binding")
    }
    return InspectorServer(port: boundPort, channel: channel)
  }

  /// Stops accepting connections. Open sockets are closed by the session.
  func close() async {
    try? await channel.close()
  }

  /// Stops accepting connections, without waiting.
  func closeSoon() {
    channel.close(promise: nil)
  }

  private static func configure(_ channel: any Channel, routes: InspectorRoutes, port: Int) throws {
    let origins = ["http://127.0.0.1:\(port)", "http://localhost:\(port)"]
    let upgrader = NIOWebSocketServerUpgrader(
      maxFrameSize: hardFrameLimit(routes),
      automaticErrorHandling: true,
      shouldUpgrade: { channel, head in
        let request = RequestTarget(head.uri)
        let origin = head.headers.first(name: "origin")
        guard request.path == "/socket", request.hasToken(routes.token),
          let origin, origins.contains(origin)
        else { return channel.eventLoop.makeSucceededFuture(nil) }
        return channel.eventLoop.makeSucceededFuture(HTTPHeaders())
      },
      upgradePipelineHandler: { channel, _ in
        channel.eventLoop.makeCompletedFuture {
          let connection = PageConnection(channel: channel)
          let operations = channel.pipeline.syncOperations
          try operations.addHandler(
            NIOWebSocketFrameAggregator(
              minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1 << 16,
              maxAccumulatedFrameSize: hardFrameLimit(routes)))
          try operations.addHandler(
            WebSocketHandler(connection: connection, maximumMessageSize: routes.maximumMessageSize))
          routes.pageConnected(connection)
        }
      })
    let operations = channel.pipeline.syncOperations
    try operations.configureHTTPServerPipeline(
      withServerUpgrade: (
        upgraders: [upgrader],
        completionHandler: { context in
          context.pipeline.syncOperations.removeHandler(name: httpHandlerName, promise: nil)
        }
      ))
    try operations.addHandler(
      HTTPHandler(routes: routes, origins: origins), name: httpHandlerName)
  }

  /// The largest frame read at all: a message above the routes' limit but below this is
  /// answered with an error on an open socket; one above it closes the socket (1009).
  private static func hardFrameLimit(_ routes: InspectorRoutes) -> Int {
    min(max(routes.maximumMessageSize * 4, 1 << 24), Int(UInt32.max))
  }

  private static let httpHandlerName = "StatecraftInspector.HTTP"
}

// MARK: - Requests

/// A request's path and query.
struct RequestTarget {
  let path: String
  let query: [String: String]

  init(_ uri: String) {
    let parts = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    path = String(parts.first ?? "")
    var query: [String: String] = [:]
    if parts.count > 1 {
      for item in parts[1].split(separator: "&") {
        let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        query[String(pair[0])] = pair.count > 1 ? String(pair[1]) : ""
      }
    }
    self.query = query
  }

  /// Whether the query's `token` is `token`, compared in a time that doesn't depend on where
  /// they differ.
  func hasToken(_ token: String) -> Bool {
    guard let given = query["token"] else { return false }
    let lhs = Array(given.utf8)
    let rhs = Array(token.utf8)
    guard lhs.count == rhs.count else { return false }
    var difference: UInt8 = 0
    for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
    return difference == 0
  }
}

/// Serves the page and the session's export and import; refuses what lacks the token.
final class HTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  private let routes: InspectorRoutes
  private let origins: [String]
  private var head: HTTPRequestHead?
  private var body: [UInt8] = []
  private var bodyTooLarge = false

  init(routes: InspectorRoutes, origins: [String]) {
    self.routes = routes
    self.origins = origins
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(let head):
      self.head = head
      body = []
      bodyTooLarge = false
    case .body(var buffer):
      guard !bodyTooLarge else { return }
      if body.count + buffer.readableBytes > routes.maximumImportSize {
        bodyTooLarge = true
        body = []
      } else {
        body += buffer.readBytes(length: buffer.readableBytes) ?? []
      }
    case .end:
      guard let head else { return }
      self.head = nil
      respond(to: head, context: context)
    }
  }

  private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
    let request = RequestTarget(head.uri)
    guard request.hasToken(routes.token) else {
      write(
        .text(
          .forbidden,
          """
          Forbidden: this inspector answers only requests that carry its token. Open the URL \
          that the app printed when it started the inspector (it ends with ?token=...).
          """), head: head, context: context)
      return
    }
    switch (head.method, request.path) {
    case (.GET, "/"), (.GET, "/index.html"), (.HEAD, "/"):
      write(
        InspectorResponse(
          status: .ok, contentType: "text/html; charset=utf-8", body: Array(routes.page.utf8)),
        head: head, context: context)
    case (.GET, "/export"):
      answerLater(head: head, context: context, with: routes.export)
    case (.POST, "/import"):
      guard !bodyTooLarge else {
        write(
          .text(
            .payloadTooLarge,
            """
            The session is larger than \(routes.maximumImportSize) bytes, the most this \
            inspector imports. Raise maximumImportSize in its configuration.
            """), head: head, context: context)
        return
      }
      let body = body
      let importSession = routes.importSession
      answerLater(head: head, context: context) { await importSession(body) }
    case (_, "/socket"):
      write(
        .text(
          .forbidden,
          """
          The socket was refused: it must be a WebSocket upgrade with the inspector's token, \
          from a page whose Origin is \(origins.joined(separator: " or ")).
          """), head: head, context: context)
    case (_, "/"), (_, "/export"), (_, "/import"):
      write(
        .text(.methodNotAllowed, "\(head.method) is not allowed on \(request.path)."), head: head,
        context: context)
    default:
      write(
        .text(.notFound, "Not found: the inspector serves /, /export, /import and /socket."),
        head: head, context: context)
    }
  }

  private func answerLater(
    head: HTTPRequestHead, context: ChannelHandlerContext,
    with answer: @escaping @Sendable () async -> InspectorResponse
  ) {
    let promise = context.eventLoop.makePromise(of: InspectorResponse.self)
    promise.completeWithTask { await answer() }
    let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    promise.futureResult.whenSuccess { response in
      let (handler, context) = bound.value
      handler.write(response, head: head, context: context)
    }
  }

  private func write(
    _ response: InspectorResponse, head: HTTPRequestHead, context: ChannelHandlerContext
  ) {
    var headers = HTTPHeaders()
    headers.add(name: "Content-Type", value: response.contentType)
    headers.add(name: "Content-Length", value: String(response.body.count))
    headers.add(name: "Cache-Control", value: "no-store")
    headers.add(name: "Connection", value: "close")
    headers.add(name: "X-Content-Type-Options", value: "nosniff")
    // NB: the page's URL carries the token: no referrer, and nothing loaded from elsewhere.
    headers.add(name: "Referrer-Policy", value: "no-referrer")
    headers.add(
      name: "Content-Security-Policy",
      value:
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
        + "img-src data:; connect-src 'self'; form-action 'none'; frame-ancestors 'none'")
    if response.contentType == "application/json", RequestTarget(head.uri).path == "/export" {
      headers.add(name: "Content-Disposition", value: "attachment; filename=\"session.json\"")
    }
    let responseHead = HTTPResponseHead(
      version: head.version, status: response.status, headers: headers)
    context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
    if head.method != .HEAD {
      context.write(
        wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: response.body)))),
        promise: nil)
    }
    let channel = context.channel
    context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
      channel.close(promise: nil)
    }
  }
}

// MARK: - Sockets

/// A page's open socket: messages from it, in order, and a way to send to it.
final class PageConnection: Sendable {
  /// A message the page sent.
  enum Inbound: Sendable {
    case text(String)
  }

  let channel: any Channel
  let messages: AsyncStream<Inbound>
  let continuation: AsyncStream<Inbound>.Continuation

  init(channel: any Channel) {
    self.channel = channel
    (messages, continuation) = AsyncStream.makeStream()
  }

  /// Sends a text message; messages arrive in the order they are sent.
  func send(_ text: String) {
    let buffer = channel.allocator.buffer(string: text)
    channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .text, data: buffer), promise: nil)
  }

  /// Closes the socket with a normal closure.
  func close() {
    var data = channel.allocator.buffer(capacity: 2)
    data.write(webSocketErrorCode: .normalClosure)
    let channel = self.channel
    channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .connectionClose, data: data))
      .whenComplete { _ in channel.close(promise: nil) }
  }
}

/// Reads a page's frames: text messages go to the session; oversized ones, binary ones and
/// fragments are answered with an error, and the socket stays open.
final class WebSocketHandler: ChannelInboundHandler {
  typealias InboundIn = WebSocketFrame
  typealias OutboundOut = WebSocketFrame

  private let connection: PageConnection
  private let maximumMessageSize: Int
  private var closing = false

  init(connection: PageConnection, maximumMessageSize: Int) {
    self.connection = connection
    self.maximumMessageSize = maximumMessageSize
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let frame = unwrapInboundIn(data)
    switch frame.opcode {
    case .text:
      let size = frame.data.readableBytes
      guard size <= maximumMessageSize else {
        reject(
          """
          The message is \(size) bytes; this inspector takes messages of at most \
          \(maximumMessageSize) bytes. It was ignored.
          """, context: context)
        return
      }
      var text = frame.unmaskedData
      connection.continuation.yield(.text(text.readString(length: text.readableBytes) ?? ""))
    case .binary:
      reject(
        "Binary messages are not part of the inspector's protocol: send JSON text. It was ignored.",
        context: context)
    case .ping:
      let pong = WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)
      context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
    case .connectionClose:
      guard !closing else {
        context.close(promise: nil)
        return
      }
      closing = true
      var data = frame.unmaskedData
      let code = data.readSlice(length: 2) ?? context.channel.allocator.buffer(capacity: 0)
      let close = WebSocketFrame(fin: true, opcode: .connectionClose, data: code)
      let channel = context.channel
      context.writeAndFlush(wrapOutboundOut(close)).whenComplete { _ in
        channel.close(promise: nil)
      }
    default:
      break
    }
  }

  func channelInactive(context: ChannelHandlerContext) {
    connection.continuation.finish()
    context.fireChannelInactive()
  }

  private func reject(_ message: String, context: ChannelHandlerContext) {
    let text = InspectorMessage.error(context: "message", message: message)
    let frame = WebSocketFrame(
      fin: true, opcode: .text, data: context.channel.allocator.buffer(string: text))
    context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
  }
}
