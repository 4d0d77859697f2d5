import Clocks
import ConcurrencyExtras
import StatecraftTesting
import Testing

@testable import Statecraft

extension Engine {
  @MainActor
  @Suite struct ReactorTests {
    final class CounterReactor: Reactor {
      enum Action: Equatable, Sendable {
        case increase
        case decrease
        case loadFact
        case ignored
        case showAbout
      }
      enum Mutation: Equatable, Sendable {
        case setCount(Int)
        case setFact(String?)
        case setLoading(Bool)
        case external(String)
      }
      struct State: Equatable, Sendable {
        var count = 0
        var fact: String?
        var isLoading = false
        var events: [String] = []
      }
      enum Route: Equatable, Sendable { case about }

      let fact: @Sendable (Int) async -> String
      let events: AsyncStream<String>?

      init(
        fact: @escaping @Sendable (Int) async -> String = { "\($0) is a number" },
        events: AsyncStream<String>? = nil
      ) {
        self.fact = fact
        self.events = events
      }

      func transform(action: Action) -> Effect<Action> {
        action == .ignored ? .none : .send(action)
      }

      func mutate(state: State, action: Action) -> Effect<Mutation> {
        switch action {
        case .increase: return .send(.setCount(state.count + 1))
        case .decrease: return .send(.setCount(state.count - 1))
        case .loadFact:
          return .concatenate(
            .send(.setLoading(true)),
            .run { [count = state.count, fact] send in await send(.setFact(await fact(count))) },
            .send(.setLoading(false))
          )
        case .ignored, .showAbout:
          return .none
        }
      }

      func reduce(state: inout State, mutation: Mutation) {
        switch mutation {
        case .setCount(let count): state.count = count
        case .setFact(let fact): state.fact = fact
        case .setLoading(let isLoading): state.isLoading = isLoading
        case .external(let event): state.events.append(event)
        }
      }

      func subscriptions() -> Effect<Mutation> {
        guard let events else { return .none }
        return .run { send in
          for await event in events { await send(.external(event)) }
        }
      }

      func route(for action: Action) -> Route? {
        action == .showAbout ? .about : nil
      }
    }

    @Test func actionsBecomeMutationsSynchronously() {
      let store = Store(initialState: CounterReactor.State(), reactor: CounterReactor())
      store.send(.increase)
      store.send(.increase)
      store.send(.decrease)
      #expect(store.count == 1)
    }

    @Test func immediateMutationsInsideCombinedEffectsAreReducedInTheSameSend() async {
      struct Steps: Reactor {
        enum Action: Equatable, Sendable { case merged, concatenated, loaded }
        enum Mutation: Equatable, Sendable { case step(String), load(LoadableUpdate<Int>) }
        struct State: Equatable, Sendable {
          var steps: [String] = []
          var value: Loadable<Int> = .idle
        }
        func mutate(state: State, action: Action) -> Effect<Mutation> {
          switch action {
          case .merged:
            return .merge(.send(.step("a")), .run { await $0(.step("later")) }, .send(.step("b")))
          case .concatenated:
            return .concatenate(
              .cancel(id: "load"), .send(.step("c")), .run { await $0(.step("after")) },
              .send(.step("last")))
          case .loaded:
            return .load(id: "load", operation: { 42 }, update: Mutation.load)
          }
        }
        func reduce(state: inout State, mutation: Mutation) {
          switch mutation {
          case .step(let step): state.steps.append(step)
          case .load(let update): state.value.apply(update)
          }
        }
      }
      // NB: the test store tells an inline mutation (asserted by `send`) from a received one.
      let store = TestStore(initialState: Steps.State(), reactor: Steps())
      await store.send(.merged) { $0.steps = ["a", "b"] }
      await store.receive(.step("later")) { $0.steps.append("later") }
      await store.send(.concatenated) { $0.steps.append("c") }
      await store.receive(.step("after")) { $0.steps.append("after") }
      await store.receive(.step("last")) { $0.steps.append("last") }
      await store.send(.loaded) { $0.value = .loading(previous: nil) }
      await store.receive(.load(.finished(.success(42)))) { $0.value = .success(42) }
      await store.finish()
    }

    @Test func mutationDefaultsToAction() {
      struct Toggle: Reactor {
        enum Action: Sendable { case toggle }
        func reduce(state: inout Bool, mutation: Action) { state.toggle() }
      }
      let store = Store(initialState: false, reactor: Toggle())
      store.send(.toggle)
      #expect(store.state)
    }

    @Test func hundredConcurrentIncrementsEndAtHundred() async {
      let store = Store(initialState: CounterReactor.State(), reactor: CounterReactor())
      await withTaskGroup(of: Void.self) { group in
        for _ in 1...100 {
          group.addTask { await store.send(.increase) }
        }
      }
      #expect(store.count == 100)
    }

    @Test func asyncMutationsArriveInOrderAndFinishIsAwaitable() async {
      let store = Store(initialState: CounterReactor.State(), reactor: CounterReactor())
      store.send(.increase)
      let task = store.send(.loadFact)
      #expect(store.isLoading)
      await task.finish()
      #expect(store.fact == "1 is a number")
      #expect(!store.isLoading)
    }

    @Test func transformActionCanDropActions() {
      let store = Store(initialState: CounterReactor.State(), reactor: CounterReactor())
      store.send(.ignored)
      #expect(store.state == CounterReactor.State())
    }

    @Test func transformMutationRewritesEveryMutateEffect() {
      struct Doubling: Reactor {
        enum Action: Sendable { case add(Int) }
        func reduce(state: inout Int, mutation: Action) {
          if case .add(let n) = mutation { state += n }
        }
        func transform(mutation: Effect<Action>) -> Effect<Action> {
          mutation.map { action in
            if case .add(let n) = action { return .add(n * 2) }
            return action
          }
        }
      }
      let store = Store(initialState: 0, reactor: Doubling())
      store.send(.add(3))
      #expect(store.state == 6)
    }

    @Test func subscriptionsFeedOutsideEventsAndStopWithTheStore() async {
      let (events, continuation) = AsyncStream.makeStream(of: String.self)
      var store: ReactorStoreOf<CounterReactor>? = Store(
        initialState: CounterReactor.State(), reactor: CounterReactor(events: events))
      weak let weakStore = store
      #expect(store?.runningEffectCount == 1)
      continuation.yield("signed in")
      await store?.wait(while: { $0.events.isEmpty })
      #expect(store?.events == ["signed in"])
      store = nil
      #expect(weakStore == nil)
      continuation.finish()
    }

    @Test func routesReachTheCoordinatorInOrder() async {
      let store = Store(initialState: CounterReactor.State(), reactor: CounterReactor())
      var routes = store.routes(CounterReactor.Route.self).makeAsyncIterator()
      store.send(.increase)
      store.send(.showAbout)
      store.send(.showAbout)
      #expect(await routes.next() == .about)
      #expect(await routes.next() == .about)
    }

    @Test func sendWhileSuspendsWhileThePredicateHolds() async {
      let started = Gate()
      let gate = Gate()
      let store = Store(
        initialState: CounterReactor.State(),
        reactor: CounterReactor(fact: { _ in
          started.open()
          await gate.wait()
          return "fresh"
        }))
      let refresh = Task { await store.send(.loadFact, while: \.isLoading) }
      await started.wait()
      #expect(store.isLoading)
      gate.open()
      await refresh.value
      #expect(!store.isLoading)
      #expect(store.fact == "fresh")
    }

    @Test func eachStoreOwnsItsState() {
      let reactor = CounterReactor()
      let first = Store(initialState: CounterReactor.State(), reactor: reactor)
      first.send(.increase)
      let second = Store(initialState: CounterReactor.State(), reactor: reactor)
      #expect(second.count == 0)
      #expect(first.count == 1)
    }
  }
}
