import Statecraft

/// The paging demo's feature, in the Feedback idiom (RxFeedback, swiftui-async-feedback).
///
/// The state says which page it wants in `request`; one feedback, `.react(to: \.request)`,
/// loads it. Changing the query changes the request, which cancels the stale load. A failed page
/// is kept so that `retry` asks for it again.
///
/// ```swift
/// The pages come from the `pageService` dependency, which the store's creator sets:
///
/// ```swift
/// let store = withDependencies {
///   $0.pageService = .inProcess(clock: ContinuousClock(), latency: .milliseconds(400))
/// } operation: {
///   Store(initialState: Paging.State(), system: Paging())
/// }
/// let loop = Task { await store.run() }
/// store.send(.queryChanged("red"))
/// await store.wait { $0.request != nil }
/// ```
public struct Paging: FeedbackSystem {
  public struct State: Equatable, Sendable {
    public var query = ""
    public var items: [String] = []
    /// How many pages are loaded.
    public var pagesLoaded = 0
    public var hasMore = true
    /// The page to load; the feedback loads it while it is set.
    public var request: PageRequest?
    /// The page that failed, and why; `retry` requests it again.
    public var failure: (request: PageRequest, message: String)?
    /// The last request dropped before it loaded (the query changed under it).
    public var cancelled: PageRequest?

    /// A first page for an empty query is requested at once.
    public init() {
      request = PageRequest(query: "", page: 0)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
      lhs.query == rhs.query && lhs.items == rhs.items && lhs.pagesLoaded == rhs.pagesLoaded
        && lhs.hasMore == rhs.hasMore && lhs.request == rhs.request
        && lhs.failure?.request == rhs.failure?.request
        && lhs.failure?.message == rhs.failure?.message && lhs.cancelled == rhs.cancelled
    }

    public var isLoading: Bool { request != nil }
  }

  public enum Event: Equatable, Sendable {
    case queryChanged(String)
    /// The list was scrolled to its end.
    case loadMore
    case retry
    case pageLoaded(PageRequest, Page)
    case pageFailed(PageRequest, String)
  }

  @Dependency(\.pageService) var service

  public init() {}

  public func reduce(into state: inout State, event: Event) {
    switch event {
    case .queryChanged(let query):
      guard query != state.query else { return }
      if let request = state.request { state.cancelled = request }
      state.query = query
      state.items = []
      state.pagesLoaded = 0
      state.hasMore = true
      state.failure = nil
      state.request = PageRequest(query: query, page: 0)

    case .loadMore:
      guard state.request == nil, state.failure == nil, state.hasMore else { return }
      state.request = PageRequest(query: state.query, page: state.pagesLoaded)

    case .retry:
      guard let failure = state.failure else { return }
      state.failure = nil
      state.request = failure.request

    case .pageLoaded(let request, let page):
      guard request == state.request else { return }
      state.items += page.items
      state.pagesLoaded += 1
      state.hasMore = page.hasMore
      state.request = nil

    case .pageFailed(let request, let message):
      guard request == state.request else { return }
      state.failure = (request, message)
      state.request = nil
    }
  }

  public var feedbacks: [Feedback<State, Event>] {
    [
      .react(to: \.request) { [service] request, send in
        do {
          await send(.pageLoaded(request, try await service.load(request)))
        } catch is CancellationError {
          // NB: a newer request replaced this one; it sends nothing.
        } catch {
          await send(.pageFailed(request, "\(error)"))
        }
      }
    ]
  }
}
