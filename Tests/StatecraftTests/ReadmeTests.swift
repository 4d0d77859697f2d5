import Clocks
import StatecraftTesting
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

    final class CounterReactor: Reactor {
      enum Action: Sendable { case increase, showAbout }
      enum Mutation: Sendable { case setCount(Int) }
      struct State: Equatable, Sendable {
        var count = 0
        @Pulse var alert: String?
      }
      enum Route: Sendable { case about }

      func mutate(state: State, action: Action) -> Effect<Mutation> {
        action == .increase ? .send(.setCount(state.count + 1)) : .none
      }
      func reduce(state: inout State, mutation: Mutation) {
        if case .setCount(let count) = mutation { state.count = count }
      }
      func route(for action: Action) -> Route? { action == .showAbout ? .about : nil }
    }

    @Test func theReactorTourCountsAndRoutes() async {
      let counter = Store(initialState: CounterReactor.State(), reactor: CounterReactor())
      var routes = counter.routes(CounterReactor.Route.self).makeAsyncIterator()
      counter.send(.increase)
      await counter.send(.increase).finish()
      counter.send(.showAbout)
      #expect(counter.count == 2)
      #expect(await routes.next() == .about)
    }

    struct CounterSystem: FeedbackSystem {
      struct State: Equatable, Sendable {
        var count = 1
        var message: String?
      }
      enum Event: Sendable { case increment, setMessage(String?) }

      func reduce(into state: inout State, event: Event) {
        switch event {
        case .increment: state.count += 1
        case .setMessage(let message): state.message = message
        }
      }
      var feedbacks: [Feedback<State, Event>] {
        [Feedback(.onChanged(\.count)) { .setMessage($0.count.isMultiple(of: 3) ? "3!" : nil) }]
      }
    }

    @Test func theFeedbackTourSetsTheMessage() async {
      let system = Store(initialState: CounterSystem.State(), system: CounterSystem())
      let loop = Task { await system.run() }
      system.send(.increment)
      system.send(.increment)
      await system.wait(while: { $0.message == nil })
      #expect(system.message == "3!")
      loop.cancel()
      await loop.value
    }

    /// The README's first feature: a struct of closures for the dependency, and a clock.
    struct FactClient: Sendable {
      var fetch: @Sendable (Int) async throws -> String

    }

    struct Counter: Reducer {
      struct State: Equatable {
        var count = 0
        var fact: String?
        var isLoading = false
      }
      enum Action: Equatable, Sendable {
        case increment
        case factButtonTapped
        case factResponse(String)
      }

      let facts: FactClient
      let clock: any Clock<Duration>

      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .increment:
          state.count += 1
          return .none
        case .factButtonTapped:
          state.isLoading = true
          return .run { [count = state.count, facts, clock] send in
            try await clock.sleep(for: .seconds(1))
            await send(.factResponse(try await facts.fetch(count)))
          }
        case .factResponse(let fact):
          state.isLoading = false
          state.fact = fact
          return .none
        }
      }
    }

    @Test func theTestingTourPasses() async {
      let clock = TestClock()
      let store = TestStore(initialState: Counter.State()) {
        Counter(facts: FactClient { _ in "1 is a number" }, clock: clock)
      }
      await store.send(.increment) { $0.count = 1 }
      await store.send(.factButtonTapped) { $0.isLoading = true }
      await clock.advance(by: .seconds(1))
      await store.receive(.factResponse("1 is a number")) {
        $0.isLoading = false
        $0.fact = "1 is a number"
      }
      await store.finish()
    }
  }
}
