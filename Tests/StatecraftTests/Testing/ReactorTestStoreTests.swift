import Clocks
import StatecraftTesting
import Testing

@testable import Statecraft

extension Engine {
  /// A reactor's test store asserts what a live store shows: the whole synchronous batch at
  /// `send`, later mutations at `receive`, routes in order, and no unasserted change at the end.
  @MainActor
  @Suite struct ReactorTestStoreTests {
    final class TapReactor: Reactor {
      enum Action: Equatable, Sendable { case tap, doubleTap, delayedTap, open(Int) }
      enum Mutation: Equatable, Sendable { case setCount(Int) }
      enum Route: Equatable, Sendable { case detail(Int) }
      struct State: Equatable, Sendable { var count = 0 }

      let clock: TestClock<Duration>
      init(clock: TestClock<Duration>) { self.clock = clock }

      func transform(action: Action) -> Effect<Action> {
        switch action {
        case .doubleTap: return .merge(.send(.tap), .send(.tap))
        case .delayedTap:
          return .run { [clock] send in
            try await clock.sleep(for: .seconds(1))
            await send(.tap)
          }
        default: return .send(action)
        }
      }
      func mutate(state: State, action: Action) -> Effect<Mutation> {
        switch action {
        case .tap: return .send(.setCount(state.count + 1))
        case .doubleTap, .delayedTap, .open: return .none
        }
      }
      func reduce(state: inout State, mutation: Mutation) {
        switch mutation {
        case .setCount(let count): state.count = count
        }
      }
      func route(for action: Action) -> Route? {
        if case .open(let id) = action { return .detail(id) }
        return nil
      }
    }

    @Test func sendAssertsEveryActionTransformActionSentSynchronously() async {
      let clock = TestClock()
      let live = Store(initialState: TapReactor.State(), reactor: TapReactor(clock: clock))
      live.send(.doubleTap)
      #expect(live.count == 2)

      let store = TestStore(initialState: TapReactor.State(), reactor: TapReactor(clock: clock))
      await store.send(.doubleTap) { $0.count = 2 }
      await store.finish()
    }

    @Test func anActionTransformActionDelayedIsReceivedAsItsMutations() async {
      let clock = TestClock()
      let store = TestStore(initialState: TapReactor.State(), reactor: TapReactor(clock: clock))
      await store.send(.delayedTap)
      await clock.advance(by: .seconds(1))
      await store.receive(.setCount(1)) { $0.count = 1 }
      await store.finish()
    }

    @Test func finishFailsOnAChangeThatWasNeverAsserted() async {
      let clock = TestClock()
      let store = TestStore(initialState: TapReactor.State(), reactor: TapReactor(clock: clock))
      await store.send(.delayedTap)
      await clock.advance(by: .seconds(1))
      await expectOneFailure(containing: ["received 1 unexpected action", "setCount(1)"]) {
        await store.finish()
      }
    }

    @Test func routesAreReceivedInOrder() async {
      let store = TestStore(
        initialState: TapReactor.State(), reactor: TapReactor(clock: TestClock()))
      await store.send(.open(1))
      await store.send(.open(2))
      store.receive(route: TapReactor.Route.detail(1))
      store.receive(route: TapReactor.Route.detail(2))
      await store.finish()
    }

    @Test func aRouteNeverReceivedFailsAtTheEnd() async {
      let store = TestStore(
        initialState: TapReactor.State(), reactor: TapReactor(clock: TestClock()))
      await store.send(.open(7))
      await expectOneFailure(containing: ["1 route that the test never received", "detail(7)"]) {
        await store.finish()
      }
    }

    @Test func aRouteOtherThanTheExpectedOneFails() async {
      let store = TestStore(
        initialState: TapReactor.State(), reactor: TapReactor(clock: TestClock()))
      await store.send(.open(7))
      await expectOneFailure(containing: ["Received an unexpected route", "detail(7)"]) {
        store.receive(route: TapReactor.Route.detail(8))
      }
      await store.finish()
    }
  }
}
