// Owns the cap on the server's open connections: the count, shared by every event loop of the
// group; the handler that holds an admitted connection's slot and gives it back when the
// connection closes; and the answer to a connection past the cap.
import Foundation
import NIOCore

/// Counts the server's open connections against its cap.
///
/// NB: `@unchecked Sendable`: `open` is read and written under `lock` only. Connections open
/// and close on every event loop of the group, so the count can't belong to one.
final class ConnectionLimiter: @unchecked Sendable {
  let maximum: Int
  private let lock = NSLock()
  private var open = 0

  init(maximum: Int) {
    self.maximum = maximum
  }

  /// Takes a slot for a new connection; false when every slot is taken.
  func admit() -> Bool {
    lock.withLock {
      guard open < maximum else { return false }
      open += 1
      return true
    }
  }

  /// Gives a slot back.
  func release() {
    lock.withLock { open -= 1 }
  }
}

/// Holds an admitted connection's slot, and gives it back when the connection closes.
///
/// NB: it is first in the pipeline, so its `channelInactive` runs before any other handler's:
/// the slot is free before the session hears that a page left.
final class ConnectionSlotHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = ByteBuffer

  private var limiter: ConnectionLimiter?

  init(limiter: ConnectionLimiter) {
    self.limiter = limiter
  }

  func channelInactive(context: ChannelHandlerContext) {
    release()
    context.fireChannelInactive()
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    release()
  }

  private func release() {
    limiter?.release()
    limiter = nil
  }
}

/// Answers a connection past the cap with 503 and closes it, reading nothing from it.
final class ExcessConnectionHandler: ChannelInboundHandler {
  typealias InboundIn = ByteBuffer
  typealias OutboundOut = ByteBuffer

  private let maximum: Int

  init(maximum: Int) {
    self.maximum = maximum
  }

  func channelActive(context: ChannelHandlerContext) {
    let text = """
      This inspector has \(maximum) connections open, the most it keeps: close a page or \
      try again later. Raise maximumConnections in its configuration for more.

      """
    let response =
      "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
      + "Content-Length: \(text.utf8.count)\r\nConnection: close\r\nCache-Control: no-store\r\n"
      + "X-Content-Type-Options: nosniff\r\n\r\n" + text
    let channel = context.channel
    context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: response)))
      .whenComplete { _ in channel.close(promise: nil) }
    context.fireChannelActive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}
