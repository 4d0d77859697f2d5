// Owns the Inspector's loopback server, on SwiftNIO: the connections it keeps (a cap, and
// deadlines for a request's head and body), the HTTP routes (the page, the session's export and
// import), the WebSocket upgrade with its Host, token and Origin checks, and the limits on what a
// page may send. What a request may do is decided from its head before any body byte is read
// (RequestPolicy.swift). It knows nothing of stores: what a route or a socket message does is the
// session's (Session/InspectorSession.swift), reached on the main actor.
import ConcurrencyExtras
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
  /// Headers beyond the ones every response has.
  var headers = HTTPHeaders()

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

/// How many connections the server keeps, and how long a request may take to arrive.
struct InspectorServerLimits: Sendable {
  var maximumConnections = 64
  /// From a connection's opening to the end of its request's headers.
  var requestHeadTimeout = TimeAmount.seconds(10)
  /// The longest silence in a request's body.
  var idleTimeout = TimeAmount.seconds(30)
  /// How long a refused request's connection is still read, and what comes dropped, so that a
  /// client still sending its body reads the refusal instead of a reset.
  var lingerTimeout = TimeAmount.seconds(2)

  init() {}

  /// The limits of `configuration`, each at least 1 (connection, or nanosecond).
  init(_ configuration: InspectorConfiguration) {
    maximumConnections = max(configuration.maximumConnections, 1)
    requestHeadTimeout = max(TimeAmount(configuration.requestHeadTimeout), .nanoseconds(1))
    idleTimeout = max(TimeAmount(configuration.idleTimeout), .nanoseconds(1))
  }
}

/// The server: bound to 127.0.0.1 until ``close()``.
final class InspectorServer: Sendable {
  let port: Int
  /// The cap on open connections, and the count against it.
  let connections: ConnectionLimiter
  private let channel: any Channel

  private init(port: Int, connections: ConnectionLimiter, channel: any Channel) {
    self.port = port
    self.connections = connections
    self.channel = channel
  }

  /// Binds a server on 127.0.0.1 at `port` (0: any free port).
  static func start(
    port: Int, limits: InspectorServerLimits,
    routes: @escaping @Sendable (Int) -> InspectorRoutes
  ) async throws -> InspectorServer {
    let connections = ConnectionLimiter(maximum: limits.maximumConnections)
    // NB: the routes need the port (the Host and the Origin a page has), known from each
    // connection's local address.
    // NB: a backlog well above the cap, so that a burst of connections past it is accepted, and
    // refused, at once, instead of waiting in the kernel's queue for a retransmission.
    let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .serverChannelOption(.backlog, value: 256)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          let operations = channel.pipeline.syncOperations
          // NB: counted before the connection is registered, so before any byte is read.
          guard let slot = connections.admit(channel) else {
            try operations.addHandler(ExcessConnectionHandler(maximum: connections.maximum))
            return
          }
          try operations.addHandler(ConnectionSlotHandler(limiter: connections, id: slot))
          let localPort = channel.localAddress?.port ?? 0
          try configure(
            channel, routes: routes(localPort), port: localPort, limits: limits,
            proven: { connections.prove(slot) })
        }
      }
    let channel = try await bootstrap.bind(host: "127.0.0.1", port: port).get()
    guard let boundPort = channel.localAddress?.port else {
      try? await channel.close()
      throw InspectorError.couldNotBind(port: port, reason: "it has no port after binding")
    }
    return InspectorServer(port: boundPort, connections: connections, channel: channel)
  }

  /// Stops accepting connections. Open sockets are closed by the session.
  func close() async {
    try? await channel.close()
  }

  /// Stops accepting connections, without waiting.
  func closeSoon() {
    channel.close(promise: nil)
  }

  /// Sets up an admitted connection: HTTP, with the upgrade to a page's socket. `proven` is
  /// called when its request shows the token, to the server's own Host.
  static func configure(
    _ channel: any Channel, routes: InspectorRoutes, port: Int, limits: InspectorServerLimits,
    proven: @escaping @Sendable () -> Void = {}
  ) throws {
    let policy = RequestPolicy(
      token: routes.token, port: port, maximumImportSize: routes.maximumImportSize)
    let upgrader = NIOWebSocketServerUpgrader(
      maxFrameSize: hardFrameLimit(routes),
      automaticErrorHandling: true,
      shouldUpgrade: { channel, head in
        let request = RequestTarget(head.uri)
        // NB: a refused upgrade goes on to the HTTP handler, whose answer says why.
        guard head.method == .GET, request.path == "/socket", policy.hasOwnHost(head),
          request.hasToken(routes.token), policy.hasOwnOrigin(head)
        else { return channel.eventLoop.makeSucceededFuture(nil) }
        proven()
        return channel.eventLoop.makeSucceededFuture(HTTPHeaders())
      },
      upgradePipelineHandler: { channel, _ in
        channel.eventLoop.makeCompletedFuture {
          let connection = PageConnection(channel: channel)
          let operations = channel.pipeline.syncOperations
          try operations.addHandler(ClientFrameCheck())
          try operations.addHandler(
            NIOWebSocketFrameAggregator(
              // NB: one above the check's limit, so that the check, which says why, decides.
              minNonFinalFragmentSize: 0,
              maxAccumulatedFrameCount: ClientFrameCheck.maximumFragments + 1,
              maxAccumulatedFrameSize: hardFrameLimit(routes)))
          try operations.addHandler(
            WebSocketHandler(connection: connection, maximumMessageSize: routes.maximumMessageSize))
          routes.pageConnected(connection)
        }
      })
    let operations = channel.pipeline.syncOperations
    // NB: no pipelining: every response closes its connection.
    try operations.configureHTTPServerPipeline(
      withPipeliningAssistance: false,
      withServerUpgrade: (
        upgraders: [upgrader],
        completionHandler: { context in
          // NB: with the HTTP handler go its deadlines: an open page's socket is never timed
          // out.
          context.pipeline.syncOperations.removeHandler(name: httpHandlerName, promise: nil)
        }
      ))
    try operations.addHandler(
      HTTPHandler(routes: routes, policy: policy, limits: limits, proven: proven),
      name: httpHandlerName)
  }

  /// The largest frame read at all: a message above the routes' limit but below this is
  /// answered with an error on an open socket; one above it closes the socket (1009).
  private static func hardFrameLimit(_ routes: InspectorRoutes) -> Int {
    min(max(routes.maximumMessageSize * 4, 1 << 24), Int(UInt32.max))
  }

  private static let httpHandlerName = "StatecraftInspector.HTTP"
}

// MARK: - Requests

/// Answers a connection's one request: decides from its head (``RequestPolicy``) before reading
/// any of its body, counts the body against the route's limit as it arrives, times out a slow
/// head or a silent body, and closes the connection after answering.
final class HTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  /// Where the connection's request is.
  private enum State {
    /// Waiting for the head, until the head's deadline.
    case awaitingHead
    /// Reading an accepted request's body; each part moves the idle deadline.
    case readingBody(AcceptedRequest)
    /// The request is complete, and its answer is on the way; nothing more is read.
    case answering
    /// A refusal was sent and the output shut: what still comes is dropped, until the client
    /// closes or the linger ends.
    case refused
  }

  private struct AcceptedRequest {
    let head: HTTPRequestHead
    let route: RequestPolicy.Route
    let bodyLimit: Int
    var received = 0
    /// The body, kept for the import only.
    var body: [UInt8] = []
  }

  private let routes: InspectorRoutes
  private let policy: RequestPolicy
  private let limits: InspectorServerLimits
  private var state = State.awaitingHead
  /// The state's one timer: the head's deadline, the body's idle deadline, or the linger.
  private var deadline: Scheduled<Void>?

  private let proven: @Sendable () -> Void

  init(
    routes: InspectorRoutes, policy: RequestPolicy, limits: InspectorServerLimits,
    proven: @escaping @Sendable () -> Void = {}
  ) {
    self.routes = routes
    self.policy = policy
    self.limits = limits
    self.proven = proven
  }

  func handlerAdded(context: ChannelHandlerContext) {
    // NB: added as the connection is accepted: the head's time counts from then.
    arm(after: limits.requestHeadTimeout, context: context)
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    deadline?.cancel()
    deadline = nil
  }

  func channelInactive(context: ChannelHandlerContext) {
    deadline?.cancel()
    deadline = nil
    context.fireChannelInactive()
  }

  /// A request the parser could not read was answered 400 with "Connection: close" by the
  /// pipeline's error handler: the connection is closed, as that answer says, instead of waiting
  /// for the head's deadline (and a 408 after the 400).
  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    guard error is HTTPParserError else {
      context.fireErrorCaught(error)
      return
    }
    deadline?.cancel()
    deadline = nil
    state = .refused
    context.close(promise: nil)
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let part = unwrapInboundIn(data)
    switch state {
    case .awaitingHead:
      guard case .head(let head) = part else { return }
      if policy.hasOwnHost(head), RequestTarget(head.uri).hasToken(routes.token) { proven() }
      switch policy.check(head) {
      case .refuse(let response):
        refuse(response, to: head, context: context)
      case .accept(let route, let bodyLimit):
        state = .readingBody(AcceptedRequest(head: head, route: route, bodyLimit: bodyLimit))
        arm(after: limits.idleTimeout, context: context)
      }
    case .readingBody(var request):
      // NB: the state lets go of the request, so that its body grows in place.
      state = .answering
      switch part {
      case .head:
        return
      case .body(let buffer):
        request.received += buffer.readableBytes
        guard request.received <= request.bodyLimit else {
          let response = policy.tooLarge(request.head, route: request.route, size: nil)
          refuse(response, to: request.head, context: context)
          return
        }
        if request.route == .importSession {
          request.body.append(contentsOf: buffer.readableBytesView)
        }
        state = .readingBody(request)
        arm(after: limits.idleTimeout, context: context)
      case .end:
        deadline?.cancel()
        deadline = nil
        respond(to: request, context: context)
      }
    case .answering, .refused:
      return
    }
  }

  // MARK: Deadlines

  private func arm(after delay: TimeAmount, context: ChannelHandlerContext) {
    deadline?.cancel()
    let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    deadline = context.eventLoop.scheduleTask(in: delay) {
      let (handler, context) = bound.value
      handler.deadlinePassed(context: context)
    }
  }

  private func deadlinePassed(context: ChannelHandlerContext) {
    deadline = nil
    switch state {
    case .awaitingHead:
      refuse(
        .text(
          .requestTimeout,
          """
          Request timeout: the request's line and headers did not arrive within \
          \(Self.describe(limits.requestHeadTimeout)) of connecting.
          """), to: nil, lingering: false, context: context)
    case .readingBody(let request):
      refuse(
        .text(
          .requestTimeout,
          "Request timeout: the body paused for more than \(Self.describe(limits.idleTimeout))."),
        to: request.head, lingering: false, context: context)
    case .refused:
      context.close(promise: nil)
    case .answering:
      break
    }
  }

  private static func describe(_ time: TimeAmount) -> String {
    let milliseconds = time.nanoseconds / 1_000_000
    return milliseconds % 1_000 == 0 ? "\(milliseconds / 1_000) s" : "\(milliseconds) ms"
  }

  // MARK: Answers

  private func respond(to request: AcceptedRequest, context: ChannelHandlerContext) {
    switch request.route {
    case .page:
      answer(
        InspectorResponse(
          status: .ok, contentType: "text/html; charset=utf-8", body: Array(routes.page.utf8)),
        to: request.head, context: context)
    case .export:
      answerLater(to: request.head, context: context, with: routes.export)
    case .importSession:
      let body = request.body
      let importSession = routes.importSession
      answerLater(to: request.head, context: context) { await importSession(body) }
    }
  }

  private func answerLater(
    to head: HTTPRequestHead, context: ChannelHandlerContext,
    with answer: @escaping @Sendable () async -> InspectorResponse
  ) {
    let promise = context.eventLoop.makePromise(of: InspectorResponse.self)
    promise.completeWithTask { await answer() }
    let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    promise.futureResult.whenSuccess { response in
      let (handler, context) = bound.value
      handler.answer(response, to: head, context: context)
    }
  }

  /// Sends `response` and closes the connection.
  private func answer(
    _ response: InspectorResponse, to head: HTTPRequestHead, context: ChannelHandlerContext
  ) {
    let channel = context.channel
    write(response, to: head, context: context).whenComplete { _ in channel.close(promise: nil) }
  }

  /// Sends `response` without reading what the request still sends.
  ///
  /// `head` is nil when the head never came. A lingering refusal shuts the output only; one
  /// that doesn't (a timeout: the client has gone quiet) closes the connection.
  private func refuse(
    _ response: InspectorResponse, to head: HTTPRequestHead?, lingering: Bool = true,
    context: ChannelHandlerContext
  ) {
    state = .refused
    deadline?.cancel()
    deadline = nil
    let channel = context.channel
    let written = write(response, to: head, context: context)
    guard lingering else {
      written.whenComplete { _ in channel.close(promise: nil) }
      return
    }
    written.whenComplete { _ in
      // NB: the input stays open and is dropped, so that a client still sending its body reads
      // the answer instead of a reset; the linger bounds how long.
      channel.close(mode: .output).whenFailure { _ in channel.close(promise: nil) }
    }
    arm(after: limits.lingerTimeout, context: context)
  }

  private func write(
    _ response: InspectorResponse, to head: HTTPRequestHead?, context: ChannelHandlerContext
  ) -> EventLoopFuture<Void> {
    var headers = response.headers
    headers.add(name: "Content-Type", value: response.contentType)
    headers.add(name: "Content-Length", value: String(response.body.count))
    headers.add(name: "Cache-Control", value: "no-store")
    headers.add(name: "Connection", value: "close")
    headers.add(name: "X-Content-Type-Options", value: "nosniff")
    // NB: the page's URL carries the token: no referrer, and nothing loaded from elsewhere.
    headers.add(name: "Referrer-Policy", value: "no-referrer")
    headers.add(name: "Content-Security-Policy", value: InspectorPage.contentSecurityPolicy)
    if response.contentType == "application/json", let head,
      RequestTarget(head.uri).path == "/export"
    {
      headers.add(name: "Content-Disposition", value: "attachment; filename=\"session.json\"")
    }
    let responseHead = HTTPResponseHead(
      version: head?.version ?? .http1_1, status: response.status, headers: headers)
    context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
    if head?.method != .HEAD {
      context.write(
        wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: response.body)))),
        promise: nil)
    }
    return context.writeAndFlush(wrapOutboundOut(.end(nil)))
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
  /// The messages sent after a place held for messages still being made (``hold()``), in order.
  private let outbox = LockIsolated(Outbox())

  init(channel: any Channel) {
    self.channel = channel
    (messages, continuation) = AsyncStream.makeStream()
  }

  /// Sends a text message; messages arrive in the order they are sent, a place held with
  /// ``hold()`` counting as sent when it is held.
  func send(_ text: String) {
    outbox.withValue { outbox in
      if outbox.queue.isEmpty { write(text) } else { outbox.queue.append(.message(text)) }
    }
  }

  /// Holds a place for messages made later (off the main actor): the messages sent after it wait
  /// until ``fill(_:with:)`` fills it.
  func hold() -> Hold {
    outbox.withValue { outbox in
      outbox.lastHold += 1
      outbox.queue.append(.held(outbox.lastHold))
      return Hold(id: outbox.lastHold)
    }
  }

  /// Sends `messages` in the place `hold` kept, then what waited behind it, up to the next
  /// place still held.
  func fill(_ hold: Hold, with messages: [String]) {
    outbox.withValue { outbox in
      guard let index = outbox.queue.firstIndex(where: { $0 == .held(hold.id) }) else { return }
      outbox.queue.replaceSubrange(index...index, with: messages.map { .message($0) })
      while case .message(let text)? = outbox.queue.first {
        write(text)
        outbox.queue.removeFirst()
      }
    }
  }

  /// A place held in the order of a page's messages.
  struct Hold: Sendable {
    fileprivate let id: Int
  }

  private struct Outbox {
    enum Entry: Equatable {
      case held(Int)
      case message(String)
    }
    var queue: [Entry] = []
    var lastHold = 0
  }

  // NB: under the outbox's lock, so that the frames reach the channel in the outbox's order.
  private func write(_ text: String) {
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

/// Fails the socket on a frame that RFC 6455 forbids a client (1002): one that is not masked,
/// that sets a reserved bit (no extension is negotiated), that has a reserved opcode, a control
/// frame that is fragmented or longer than 125 bytes, a continuation with no message to continue,
/// or a new message before the last one's final fragment. A message of more than
/// ``maximumFragments`` fragments fails it too (1009), instead of being dropped without a word.
///
/// NB: it runs before the aggregator, which unmasks the fragments it joins: after it, every
/// joined message looks unmasked. The aggregator never sees a frame it would refuse, so none of
/// its errors is lost in the pipeline.
final class ClientFrameCheck: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = WebSocketFrame
  typealias InboundOut = WebSocketFrame
  typealias OutboundOut = WebSocketFrame

  /// The most fragments a message may come in.
  static let maximumFragments = 1 << 16

  private var failed = false
  /// How many fragments the message being received has so far; 0 between messages.
  private var fragments = 0

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard !failed else { return }
    let frame = unwrapInboundIn(data)
    if let fault = fault(of: frame) {
      failed = true
      closeSocket(context: context, code: fault.code, reason: fault.reason)
      return
    }
    context.fireChannelRead(data)
  }

  /// Why `frame` fails the socket, or nil when it is read; counts the message's fragments.
  private func fault(of frame: WebSocketFrame) -> (code: WebSocketErrorCode, reason: String)? {
    guard frame.maskKey != nil else {
      return (.protocolError, "A page's frames must be masked (RFC 6455, 5.1).")
    }
    guard !frame.rsv1, !frame.rsv2, !frame.rsv3 else {
      return (.protocolError, "No extension was agreed: reserved bits must be 0 (RFC 6455, 5.2).")
    }
    switch frame.opcode {
    case .connectionClose, .ping, .pong:
      guard frame.fin, frame.length <= 125 else {
        return (
          .protocolError,
          "A control frame must be final and at most 125 bytes (RFC 6455, 5.5)."
        )
      }
      return nil
    case .text, .binary:
      guard fragments == 0 else {
        return (.protocolError, "A new message began before the last one's final fragment.")
      }
      fragments = frame.fin ? 0 : 1
      return nil
    case .continuation:
      guard fragments > 0 else {
        return (.protocolError, "A continuation frame came with no message to continue.")
      }
      fragments += 1
      guard fragments <= Self.maximumFragments else {
        return (
          .messageTooLarge,
          "A message may come in at most \(Self.maximumFragments) fragments."
        )
      }
      if frame.fin { fragments = 0 }
      return nil
    default:
      return (.protocolError, "The opcode \(frame.opcode) is reserved (RFC 6455, 5.2).")
    }
  }
}

/// Reads a page's frames: text messages go to the session; oversized ones, binary ones and
/// fragments are answered with an error, and the socket stays open. A text message that is not
/// UTF-8 fails the socket (1007).
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
    // NB: once a close is sent, only the page's close is read.
    guard !closing || frame.opcode == .connectionClose else { return }
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
      guard let text = Self.text(frame.unmaskedData) else {
        closing = true
        closeSocket(
          context: context, code: .dataInconsistentWithMessage,
          reason: "A text message must be UTF-8 (RFC 6455, 8.1).")
        return
      }
      connection.continuation.yield(.text(text))
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
      // NB: a close is answered with its own code, unless the code is one a peer may not send,
      // or its reason is not UTF-8 (RFC 6455, 5.5.1 and 7.4).
      var answer = context.channel.allocator.buffer(capacity: 2)
      if data.readableBytes == 1 {
        answer.write(webSocketErrorCode: .protocolError)
      } else if let code = data.readInteger(as: UInt16.self) {
        if !Self.isValidCloseCode(code) {
          answer.write(webSocketErrorCode: .protocolError)
        } else if Self.text(data) == nil {
          answer.write(webSocketErrorCode: .dataInconsistentWithMessage)
        } else {
          answer.writeInteger(code)
        }
      }
      let close = WebSocketFrame(fin: true, opcode: .connectionClose, data: answer)
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

  /// A message the aggregator could not join (larger in all than the hard limit) fails the
  /// socket with 1009, instead of being dropped without a word. (The frame decoder's errors are
  /// answered by NIO's own handler, before this one.)
  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    guard let error = error as? NIOWebSocketFrameAggregator.Error else {
      context.fireErrorCaught(error)
      return
    }
    guard !closing else { return }
    closing = true
    if case .accumulatedFrameSizeIsTooLarge = error {
      closeSocket(
        context: context, code: .messageTooLarge, reason: "The message is too large to read.")
    } else {
      closeSocket(context: context, code: .protocolError, reason: "The frames broke RFC 6455.")
    }
  }

  /// Whether a peer may close with `code`: the codes RFC 6455 defines for it (1000 to 1003,
  /// 1007 to 1011), the ones registered since (1012 to 1014), and the ones for libraries and
  /// applications (3000 to 4999).
  static func isValidCloseCode(_ code: UInt16) -> Bool {
    switch code {
    case 1000...1003, 1007...1014, 3000...4999: return true
    default: return false
    }
  }

  /// The bytes as a string, or nil when they are not UTF-8.
  static func text(_ bytes: ByteBuffer) -> String? {
    let view = bytes.readableBytesView
    let text = String(decoding: view, as: UTF8.self)
    // NB: decoding replaces each ill-formed sequence with U+FFFD: the bytes were UTF-8 exactly
    // when the string encodes back to them.
    return text.utf8.elementsEqual(view) ? text : nil
  }

  private func reject(_ message: String, context: ChannelHandlerContext) {
    let text = InspectorMessage.error(context: "message", message: message)
    let frame = WebSocketFrame(
      fin: true, opcode: .text, data: context.channel.allocator.buffer(string: text))
    context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
  }
}

/// Sends a close frame with `code` and `reason` (at most 123 bytes), then closes the connection
/// without reading what the page still sends.
private func closeSocket(context: ChannelHandlerContext, code: WebSocketErrorCode, reason: String) {
  var data = context.channel.allocator.buffer(capacity: 2 + reason.utf8.count)
  data.write(webSocketErrorCode: code)
  data.writeString(reason)
  let frame = WebSocketFrame(fin: true, opcode: .connectionClose, data: data)
  let channel = context.channel
  context.writeAndFlush(NIOAny(frame)).whenComplete { _ in channel.close(promise: nil) }
}
