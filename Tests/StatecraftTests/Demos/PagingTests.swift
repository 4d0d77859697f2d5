import Clocks
import PagingFeature
import Statecraft
import StatecraftTesting
import Testing

extension Engine {
  @MainActor @Suite struct PagingTests {
    let clock = TestClock()

    func makeStore(failingPage: Int? = nil) -> TestStore<
      Paging.State, Paging.Event, Paging.Event
    > {
      TestStore(initialState: Paging.State(), system: Paging()) {
        $0.pageService = .inProcess(clock: clock, latency: .seconds(1), failingPage: failingPage)
      }
    }

    let first = PageRequest(query: "", page: 0)
    let second = PageRequest(query: "", page: 1)

    @Test func theFirstPageLoadsAtOnceAndTheNextOneWhenTheListEnds() async {
      let store = makeStore()
      await clock.advance(by: .seconds(1))
      await store.receive(.pageLoaded(first, PageService.page(first))) {
        $0.items = PageService.page(first).items
        $0.pagesLoaded = 1
        $0.request = nil
      }
      await store.send(.loadMore) { $0.request = second }
      await store.send(.loadMore)
      await clock.advance(by: .seconds(1))
      await store.receive(.pageLoaded(second, PageService.page(second))) {
        $0.items += PageService.page(second).items
        $0.pagesLoaded = 2
        $0.request = nil
      }
      #expect(store.state.items.count == 2 * PageService.pageSize)
      await store.finish()
    }

    @Test func aNewQueryCancelsTheStaleLoad() async {
      let store = makeStore()
      await clock.advance(by: .milliseconds(500))
      let red = PageRequest(query: "red", page: 0)
      await store.send(.queryChanged("red")) {
        $0.query = "red"
        $0.cancelled = first
        $0.request = red
      }
      await clock.advance(by: .seconds(1))
      // NB: the first page for "" would have answered at 1 s; it was cancelled and sends nothing.
      await store.receive(.pageLoaded(red, PageService.page(red))) {
        $0.items = PageService.page(red).items
        $0.pagesLoaded = 1
        $0.request = nil
      }
      #expect(store.state.items.allSatisfy { $0.contains("red") })
      await store.finish()
    }

    @Test func aFailedPageIsRetried() async {
      let store = makeStore(failingPage: 1)
      await clock.advance(by: .seconds(1))
      await store.receive(.pageLoaded(first, PageService.page(first))) {
        $0.items = PageService.page(first).items
        $0.pagesLoaded = 1
        $0.request = nil
      }
      await store.send(.loadMore) { $0.request = second }
      await clock.advance(by: .seconds(1))
      let message = "the server did not answer for page 2"
      await store.receive(.pageFailed(second, message)) {
        $0.failure = (second, message)
        $0.request = nil
      }
      await store.send(.loadMore)
      await store.send(.retry) {
        $0.failure = nil
        $0.request = second
      }
      await clock.advance(by: .seconds(1))
      await store.receive(.pageLoaded(second, PageService.page(second))) {
        $0.items += PageService.page(second).items
        $0.pagesLoaded = 2
        $0.request = nil
      }
      await store.finish()
    }

    /// A page number out of range (below 0, past the last, near `Int.max`) is an empty last
    /// page, not a trap.
    @Test func aPageOutOfRangeIsEmpty() {
      for page in [-1, Int.min, 9, 1_000, Int.max / 8 + 1, Int.max] {
        #expect(
          PageService.page(PageRequest(query: "", page: page)) == Page(items: [], hasMore: false),
          "page \(page)")
      }
      #expect(PageService.page(PageRequest(query: "", page: 8)).items.count == 8)
      #expect("\(PageRequest(query: "", page: .max))" == "page after \(Int.max)")
    }

    @Test func theLastPageEndsTheList() async {
      let store = makeStore()
      let query = "teal"
      let matches = PageService.catalog.filter { $0.contains(query) }
      #expect(matches.count > PageService.pageSize)
      await store.send(.queryChanged(query)) {
        $0.query = query
        $0.cancelled = first
        $0.request = PageRequest(query: query, page: 0)
      }
      await clock.advance(by: .seconds(1))
      await store.receive(
        .pageLoaded(
          PageRequest(query: query, page: 0), PageService.page(PageRequest(query: query, page: 0)))
      ) {
        $0.items = Array(matches.prefix(PageService.pageSize))
        $0.pagesLoaded = 1
        $0.request = nil
      }
      await store.send(.loadMore) { $0.request = PageRequest(query: query, page: 1) }
      await clock.advance(by: .seconds(1))
      await store.receive(
        .pageLoaded(
          PageRequest(query: query, page: 1), PageService.page(PageRequest(query: query, page: 1)))
      ) {
        $0.items = matches
        $0.pagesLoaded = 2
        $0.hasMore = false
        $0.request = nil
      }
      await store.send(.loadMore)
      await store.finish()
    }
  }
}
