import Foundation

/// How an ``Inspector`` listens, what it accepts from a page, and what it offers.
///
/// ```swift
/// var configuration = InspectorConfiguration()
/// configuration.port = 9090
/// let inspector = try await Inspector(store: store, configuration: configuration)
/// ```
///
/// The limits bound what any client of the port can cost the app, with or without the token:
/// see <doc:TheInspector#Security-model>.
public struct InspectorConfiguration {
  /// The port on 127.0.0.1 to listen on; 0 (the default) picks a free one.
  public var port: Int
  /// The largest socket message a page may send, in bytes (1 MiB by default). A larger one is
  /// answered with an error, and the socket stays open.
  public var maximumMessageSize: Int
  /// The largest session a page may import, in bytes (64 MiB by default).
  ///
  /// A request that declares a larger body is refused with 413 from its `Content-Length`,
  /// before any of the body is read; a chunked one is refused as soon as it passes the limit.
  public var maximumImportSize: Int
  /// The most steps the timeline shows while a page is connected (100,000 by default), as
  /// Redux DevTools' `maxAge` does. Past it, the oldest steps leave the window at once: they
  /// can't be listed or viewed. Their memory is given back a checkpoint at a time. A step costs
  /// its action and a few words, never a state.
  public var maximumSteps: Int
  /// How often the timeline keeps a whole state at first (every 64 steps by default). The
  /// states between two checkpoints are recomputed, when a page views them, by running the
  /// reducer again on the recorded actions from the checkpoint before.
  public var checkpointInterval: Int
  /// The most whole states the timeline keeps (6 by default). Past it, every other checkpoint
  /// goes and the interval doubles: a large state costs at most this many copies, and a
  /// viewed step recomputes more actions.
  public var maximumCheckpoints: Int
  /// The most connections the server keeps open at once (64 by default): requests and pages'
  /// sockets alike.
  ///
  /// A connection whose request showed the inspector's token keeps its slot; one that has not
  /// (yet) gives its slot up to a newer connection when every slot is taken, and is closed, so
  /// that connections without the token can't keep a page out. A connection past it when every
  /// slot showed the token is answered 503 and closed at once, before any of its bytes are
  /// read. An open page's socket holds one connection for as long as the page is open.
  public var maximumConnections: Int
  /// How long a new connection has to send its request's line and headers (10 seconds by
  /// default).
  ///
  /// The time counts from when the connection opens, so headers sent a byte at a time don't
  /// stretch it. A connection that is not done by then is answered 408 and closed.
  public var requestHeadTimeout: Duration
  /// The longest silence while a request's body arrives (30 seconds by default); a request
  /// that pauses longer is answered 408 and closed.
  ///
  /// The server answers every request with `Connection: close`, so there is no keep-alive to
  /// time out, and an open page's socket is never timed out.
  public var idleTimeout: Duration
  /// Makes a test from an exported session (the JSON of a `Recording`), for the page's
  /// "Generate test" button; the button is hidden while this is nil.
  public var generateTest: (@MainActor (Data) throws -> String)?

  /// A configuration: any free port, 1 MiB messages, 64 MiB imports, a timeline of at most
  /// 100,000 steps with at most 6 checkpoints, first every 64 steps, 64 connections, 10 s for a
  /// request's headers, 30 s of silence in a body, no test generator.
  public init(
    port: Int = 0,
    maximumMessageSize: Int = 1 << 20,
    maximumImportSize: Int = 64 << 20,
    maximumSteps: Int = 100_000,
    checkpointInterval: Int = 64,
    maximumCheckpoints: Int = 6,
    maximumConnections: Int = 64,
    requestHeadTimeout: Duration = .seconds(10),
    idleTimeout: Duration = .seconds(30),
    generateTest: (@MainActor (Data) throws -> String)? = nil
  ) {
    self.port = port
    self.maximumMessageSize = maximumMessageSize
    self.maximumImportSize = maximumImportSize
    self.maximumSteps = maximumSteps
    self.checkpointInterval = checkpointInterval
    self.maximumCheckpoints = maximumCheckpoints
    self.maximumConnections = maximumConnections
    self.requestHeadTimeout = requestHeadTimeout
    self.idleTimeout = idleTimeout
    self.generateTest = generateTest
  }
}
