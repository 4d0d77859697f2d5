// Owns the checks an HTTP request passes before the server reads a byte of its body, in the
// order the design sets: its method, its Host, its token, its route (and an import's Origin),
// then the size its head declares. It is pure: it reads a request's head and says what to do; the HTTP handler
// (InspectorServer.swift) carries that out and counts a body that declares no size.
import NIOHTTP1

/// What the server answers a request from its head alone.
struct RequestPolicy: Sendable {
  /// A route that reads a request's body and answers it.
  enum Route: Sendable, Equatable {
    case page
    case export
    case importSession

    init?(path: String) {
      switch path {
      case "/", "/index.html": self = .page
      case "/export": self = .export
      case "/import": self = .importSession
      default: return nil
      }
    }
  }

  /// The methods each path answers; the socket's is its upgrade's.
  static let methods: [String: [HTTPMethod]] = [
    "/": [.GET, .HEAD], "/index.html": [.GET, .HEAD], "/export": [.GET], "/import": [.POST],
    "/socket": [.GET],
  ]

  /// What to do with a request.
  enum Verdict {
    /// Read the body, at most `bodyLimit` bytes, then answer the route.
    case accept(Route, bodyLimit: Int)
    /// Answer this, and read nothing more.
    case refuse(InspectorResponse)
  }

  let token: String
  let port: Int
  let maximumImportSize: Int

  /// The `Host` values a request may carry: the server's own address, by either name.
  var hosts: [String] { ["127.0.0.1:\(port)", "localhost:\(port)"] }

  /// The `Origin` values a page may open the socket from.
  var origins: [String] { hosts.map { "http://\($0)" } }

  /// Decides from the head alone, checking the method, then the Host, then the token, then the
  /// route, then the declared size.
  func check(_ head: HTTPRequestHead) -> Verdict {
    let target = RequestTarget(head.uri)
    if let methods = Self.methods[target.path], !methods.contains(head.method) {
      let allowed = methods.map(\.rawValue)
      var response = InspectorResponse.text(
        .methodNotAllowed,
        """
        \(head.method.rawValue) is not allowed on \(target.path): it answers \
        \(allowed.joined(separator: " and ")).
        """)
      response.headers.add(name: "Allow", value: allowed.joined(separator: ", "))
      return .refuse(response)
    }
    guard hasOwnHost(head) else {
      return .refuse(
        .text(
          .misdirectedRequest,
          """
          Misdirected request: this inspector answers only requests addressed to \
          \(hosts.joined(separator: " or ")) (the Host header). A request under another name, \
          such as one from a site whose name was made to point here, is refused.
          """))
    }
    guard target.hasToken(token) else {
      return .refuse(
        .text(
          .forbidden,
          """
          Forbidden: this inspector answers only requests that carry its token. Open the URL \
          that the app printed when it started the inspector (it ends with ?token=...).
          """))
    }
    guard target.path != "/socket" else {
      // NB: an upgrade that passed its checks never comes here.
      return .refuse(
        .text(
          .forbidden,
          """
          The socket was refused: it must be a WebSocket upgrade with the inspector's token, \
          from a page whose Origin is \(origins.joined(separator: " or ")).
          """))
    }
    guard let route = Route(path: target.path) else {
      return .refuse(
        .text(.notFound, "Not found: the inspector serves /, /export, /import and /socket."))
    }
    // NB: a browser sends the Origin of every POST; a client that is no browser may send none.
    // A site that learned the token can make a browser post, but not from the page's Origin.
    if route == .importSession, !head.headers["origin"].isEmpty, !hasOwnOrigin(head) {
      return .refuse(
        .text(
          .forbidden,
          """
          The import was refused: a session is imported from the inspector's own page, whose \
          Origin is \(origins.joined(separator: " or ")) (one Origin header, or none).
          """))
    }
    let limit = bodyLimit(of: route)
    let lengths = head.headers["content-length"]
    if !lengths.isEmpty {
      guard let length = Int(lengths[0]), length >= 0, lengths.allSatisfy({ $0 == lengths[0] })
      else {
        return .refuse(.text(.badRequest, "The Content-Length is not a number of bytes."))
      }
      guard length <= limit else {
        return .refuse(tooLarge(head, route: route, size: length))
      }
    }
    return .accept(route, bodyLimit: limit)
  }

  /// The largest body `route` reads.
  func bodyLimit(of route: Route) -> Int {
    route == .importSession ? maximumImportSize : 0
  }

  /// The answer to a body larger than its route reads: `size` when its head declared it.
  func tooLarge(_ head: HTTPRequestHead, route: Route, size: Int?) -> InspectorResponse {
    guard route == .importSession else {
      return .text(
        .payloadTooLarge, "\(head.method.rawValue) \(RequestTarget(head.uri).path) takes no body.")
    }
    return .text(
      .payloadTooLarge,
      """
      This inspector imports sessions of at most \(maximumImportSize) bytes, and this one is \
      \(size.map { "\($0) bytes" } ?? "larger"). Raise maximumImportSize in its configuration.
      """)
  }

  /// Whether the request carries one `Origin`, and it is a page of the server's own. (A request
  /// with two is refused whatever the first says.)
  func hasOwnOrigin(_ head: HTTPRequestHead) -> Bool {
    let values = head.headers["origin"]
    return values.count == 1 && origins.contains(values[0])
  }

  /// Whether the request carries one `Host`, and it is the server's own address.
  func hasOwnHost(_ head: HTTPRequestHead) -> Bool {
    let values = head.headers["host"]
    return values.count == 1 && hosts.contains(values[0])
  }
}

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
