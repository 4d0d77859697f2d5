import Statecraft

/// One page of results.
public struct Page: Equatable, Sendable {
  public var items: [String]
  /// Whether a page follows this one.
  public var hasMore: Bool

  public init(items: [String], hasMore: Bool) {
    self.items = items
    self.hasMore = hasMore
  }
}

/// The page the list asks for: a query and a page number (0 is the first).
public struct PageRequest: Equatable, Hashable, Sendable, CustomStringConvertible {
  public var query: String
  public var page: Int

  public init(query: String, page: Int) {
    self.query = query
    self.page = page
  }

  public var description: String {
    // NB: counted from 1 for people; the last `Int` has no successor.
    let number = page < .max ? "\(page + 1)" : "after \(page)"
    return "page \(number)" + (query.isEmpty ? "" : " for '\(query)'")
  }
}

/// Where pages come from: an in-process catalog with latency, standing in for a paged API.
public struct PageService: Sendable {
  public var load: @Sendable (PageRequest) async throws -> Page

  public init(load: @escaping @Sendable (PageRequest) async throws -> Page) {
    self.load = load
  }

  /// The items of the catalog, in order.
  public static let catalog: [String] = {
    let colors = ["red", "green", "blue", "amber", "violet", "teal", "coral", "olive"]
    let things = ["kite", "boat", "lamp", "drum", "fern", "comet", "harp", "maple", "quill"]
    return (0..<72).map { "\(colors[$0 % colors.count]) \(things[$0 % things.count]) \($0 + 1)" }
  }()

  /// Items per page.
  public static let pageSize = 8

  /// The page of the catalog's items that contain the query: empty for a page number past the
  /// last or below 0.
  public static func page(_ request: PageRequest) -> Page {
    let matches =
      request.query.isEmpty ? catalog : catalog.filter { $0.contains(request.query.lowercased()) }
    guard request.page >= 0 else { return Page(items: [], hasMore: false) }
    // NB: `page * pageSize` would overflow for a huge page number.
    let start = request.page > matches.count / pageSize ? matches.count : request.page * pageSize
    let end = min(start + pageSize, matches.count)
    return Page(items: Array(matches[start..<end]), hasMore: end < matches.count)
  }

  /// Answers after `latency` on `clock`. The first request for page number `failingPage` (any
  /// query) fails, so that the demo shows a retry; later ones succeed.
  public static func inProcess(
    clock: any Clock<Duration>, latency: Duration, failingPage: Int? = nil
  ) -> Self {
    let failures = FailOnce(page: failingPage)
    return Self { request in
      try await clock.sleep(for: latency)
      if await failures.shouldFail(request) { throw PageError.unavailable(request) }
      return page(request)
    }
  }
}

/// Why a page did not load.
public enum PageError: Error, Equatable, CustomStringConvertible {
  case unavailable(PageRequest)

  public var description: String {
    switch self {
    case .unavailable(let request): return "the server did not answer for \(request)"
    }
  }
}

/// Fails the first request for one page number.
actor FailOnce {
  let page: Int?
  var hasFailed = false

  init(page: Int?) {
    self.page = page
  }

  func shouldFail(_ request: PageRequest) -> Bool {
    guard request.page == page, !hasFailed else { return false }
    hasFailed = true
    return true
  }
}

// MARK: - The dependency

extension PageService: DependencyKey {
  /// The in-process catalog, answering after 400 ms. It has no test value: a test that loads a
  /// page without setting `pageService` fails, naming it.
  public static let liveValue = PageService.inProcess(
    clock: ContinuousClock(), latency: .milliseconds(400))
}

extension DependencyValues {
  /// Where the paging feature loads its pages from.
  public var pageService: PageService {
    get { self[PageService.self] }
    set { self[PageService.self] = newValue }
  }
}
