// Owns the cap on the server's open connections: the count, shared by every event loop of the
// group; the handler that holds an admitted connection's slot and gives it back when the
// connection closes; and the answer to a connection past the cap.
import Foundation
import NIOCore

/// Counts the server's open connections against its cap, telling apart the ones whose request
/// showed the token (proven) from the ones that have not (yet).
///
/// A new connection past the cap takes the slot of the oldest unproven one, which is closed: a
/// local process that opens connections in a loop, or holds them silent, can't keep a page out,
/// since the page's request shows the token as soon as it arrives. Only when every slot is
/// proven is a new connection refused.
///
/// NB: `@unchecked Sendable`: the slots are read and written under `lock` only. Connections open
/// and close on every event loop of the group, so the count can't belong to one.
final class ConnectionLimiter: @unchecked Sendable {
  let maximum: Int
  private let lock = NSLock()
  /// The connections that have not shown the token, oldest first.
  private var unproven: [(id: Int, channel: any Channel)] = []
  private var proven: Set<Int> = []
  private var lastID = 0
  /// The tests waiting for a number of connections to have been admitted.
  private var admissionWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

  init(maximum: Int) {
    self.maximum = maximum
  }

  /// Takes a slot for `channel`: its slot's id, or nil when every slot is proven. An unproven
  /// connection that gave up its slot is closed.
  func admit(_ channel: any Channel) -> Int? {
    let admission: (id: Int, evicted: (any Channel)?)? = lock.withLock {
      var evicted: (any Channel)?
      if unproven.count + proven.count >= maximum {
        guard !unproven.isEmpty else { return nil }
        evicted = unproven.removeFirst().channel
      }
      lastID += 1
      unproven.append((lastID, channel))
      return (lastID, evicted)
    }
    admission?.evicted?.close(promise: nil)
    resumeAdmissionWaiters()
    return admission?.id
  }

  /// Returns once `count` connections have been admitted since the server started (the tests'
  /// way to open connections in a known order: connections on different event loops are
  /// admitted in any order).
  func waitForAdmissions(_ count: Int) async {
    await withCheckedContinuation { continuation in
      let ready = lock.withLock {
        guard lastID < count else { return true }
        admissionWaiters.append((count, continuation))
        return false
      }
      if ready { continuation.resume() }
    }
  }

  private func resumeAdmissionWaiters() {
    let ready = lock.withLock {
      let ready = admissionWaiters.filter { $0.count <= lastID }
      admissionWaiters.removeAll { $0.count <= lastID }
      return ready
    }
    for waiter in ready { waiter.continuation.resume() }
  }

  /// Marks slot `id`'s connection as one that showed the token: no newcomer takes its slot.
  func prove(_ id: Int) {
    lock.withLock {
      guard let index = unproven.firstIndex(where: { $0.id == id }) else { return }
      unproven.remove(at: index)
      proven.insert(id)
    }
  }

  /// Gives slot `id` back (nothing when a newcomer took it already).
  func release(_ id: Int) {
    lock.withLock {
      if proven.remove(id) == nil { unproven.removeAll { $0.id == id } }
    }
  }

  /// How many slots are proven, and how many not: for tests.
  var counts: (proven: Int, unproven: Int) {
    lock.withLock { (proven.count, unproven.count) }
  }
}

/// Holds an admitted connection's slot, and gives it back when the connection closes.
///
/// NB: it is first in the pipeline, so its `channelInactive` runs before any other handler's:
/// the slot is free before the session hears that a page left.
final class ConnectionSlotHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = ByteBuffer

  private var limiter: ConnectionLimiter?
  private let id: Int

  init(limiter: ConnectionLimiter, id: Int) {
    self.limiter = limiter
    self.id = id
  }

  func channelInactive(context: ChannelHandlerContext) {
    release()
    context.fireChannelInactive()
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    release()
  }

  private func release() {
    limiter?.release(id)
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
