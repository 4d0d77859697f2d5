import Clocks
import Testing

@testable import Statecraft

/// The README's tour, compiled and run, so that it stays true.
extension Engine {
  @MainActor
  @Suite struct ReadmeTests {
    struct Search: Reducer {
      struct State: Equatable {
        var query = ""
        var results: [String] = []
      }
      enum Action: Sendable {
        case queryChanged(String)
        case results([String])
      }
      enum CancelID { case search }

      let search: @Sendable (String) async throws -> [String]
      let clock: any Clock<Duration>

      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .queryChanged(let query):
          state.query = query
          return .run { send in await send(.results(try await search(query))) }
            .debounce(id: CancelID.search, for: .milliseconds(300), clock: clock)
        case .results(let results):
          state.results = results
          return .none
        }
      }
    }

    @Test func theTourSearchesOnceTypingPauses() async {
      let clock = TestClock()
      let store = Store(initialState: Search.State()) {
        Search(search: { ["\($0) 1", "\($0) 2"] }, clock: clock)
      }
      store.send(.queryChanged("sw"))
      let last = store.send(.queryChanged("swift"))
      #expect(store.query == "swift")
      await clock.advance(by: .milliseconds(300))
      await last.finish()
      #expect(store.results == ["swift 1", "swift 2"])
    }
  }
}
