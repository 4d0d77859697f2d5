import Clocks
import ConcurrencyExtras
import StatecraftTesting
import Testing

@testable import Statecraft

extension Engine {
  @MainActor
  @Suite struct TestStoreTests {
    /// A counter whose fact loads after a second on a clock.
    struct Feature: Reducer {
      struct State: Equatable, Sendable {
        var count = 0
        var fact: String?
        var isLoading = false
      }
      enum Action: Equatable, Sendable {
        case increment
        case factButtonTapped
        case factResponse(String)
        case startTimer
        case stopTimer
        case tick
      }
      enum CancelID { case timer }

      let clock: TestClock<Duration>

      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .increment:
          state.count += 1
          return .none
        case .factButtonTapped:
          state.isLoading = true
          return .run { [count = state.count, clock] send in
            try await clock.sleep(for: .seconds(1))
            await send(.factResponse("\(count) is a number"))
          }
        case .factResponse(let fact):
          state.isLoading = false
          state.fact = fact
          return .none
        case .startTimer:
          return .run { [clock] send in
            for await _ in clock.timer(interval: .seconds(1)) { await send(.tick) }
          }
          .cancellable(id: CancelID.timer)
        case .stopTimer:
          return .cancel(id: CancelID.timer)
        case .tick:
          state.count += 1
          return .none
        }
      }
    }

    func makeStore(_ clock: TestClock<Duration>) -> TestStoreOf<Feature> {
      TestStore(initialState: Feature.State()) { Feature(clock: clock) }
    }

    // MARK: - Passing tests

    @Test func assertsSentAndReceivedActions() async {
      let clock = TestClock()
      let store = makeStore(clock)
      await store.send(.increment) { $0.count = 1 }
      await store.send(.factButtonTapped) { $0.isLoading = true }
      await clock.advance(by: .seconds(1))
      await store.receive(.factResponse("1 is a number")) {
        $0.isLoading = false
        $0.fact = "1 is a number"
      }
      await store.finish()
    }

    @Test func receivesByCaseAndByPredicate() async {
      let clock = TestClock()
      let store = makeStore(clock)
      await store.send(.startTimer)
      await clock.advance(by: .seconds(2))
      await store.receive(case: { if case .tick = $0 { () } else { nil } }) { $0.count = 1 }
      await store.receive(where: { $0 == .tick }) { $0.count = 2 }
      await store.send(.stopTimer)
      await store.finish()
    }

    @Test func nonExhaustiveStoresCheckOnlyWhatIsAsserted() async {
      let clock = TestClock()
      let store = makeStore(clock)
      store.exhaustivity = .off
      await store.send(.increment)
      await store.send(.factButtonTapped)
      await clock.advance(by: .seconds(1))
      await store.receive(.factResponse("1 is a number")) { $0.fact = "1 is a number" }
      #expect(store.state.count == 1)
      await store.send(.startTimer)
      await clock.advance(by: .seconds(3))
      await store.finish(timeout: .milliseconds(10))
    }

    @Test func skippingReceivedActionsAndInFlightEffects() async {
      let clock = TestClock()
      let store = makeStore(clock)
      await store.send(.startTimer)
      await clock.advance(by: .seconds(3))
      await store.skipReceivedActions()
      #expect(store.state.count == 3)
      await store.skipInFlightEffects()
      await store.finish()
    }

    // MARK: - Each failure mode, exactly once

    @Test func aWrongStateAssertionFailsWithADiff() async {
      let store = makeStore(TestClock())
      await expectOneFailure(containing: ["does not match the assertion", "−", "+", "count"]) {
        await store.send(.increment) { $0.count = 2 }
      }
      await store.finish()
    }

    @Test func anUnassertedStateChangeFails() async {
      let store = makeStore(TestClock())
      await expectOneFailure(containing: ["the test asserted no change", "count"]) {
        await store.send(.increment)
      }
      await store.finish()
    }

    @Test func anActionNeverReceivedFailsAtTheEnd() async {
      let clock = TestClock()
      let store = makeStore(clock)
      await store.send(.factButtonTapped) { $0.isLoading = true }
      await clock.advance(by: .seconds(1))
      await expectOneFailure(containing: ["received 1 unexpected action", "factResponse"]) {
        await store.finish()
      }
    }

    @Test func anUnexpectedActionFailsReceive() async {
      let clock = TestClock()
      let store = makeStore(clock)
      await store.send(.factButtonTapped) { $0.isLoading = true }
      await clock.advance(by: .seconds(1))
      await expectOneFailure(containing: ["Received unexpected action", "factResponse"]) {
        await store.receive(.tick)
      }
      await store.finish()
    }

    @Test func anEffectStillRunningAtTheEndFails() async {
      let store = makeStore(TestClock())
      await store.send(.startTimer)
      await expectOneFailure(containing: ["1 effect is still running at the end of the test"]) {
        await store.finish(timeout: .milliseconds(10))
      }
    }

    @Test func waitingForAnActionThatNeverComesTimesOut() async {
      let store = makeStore(TestClock())
      await store.send(.factButtonTapped) { $0.isLoading = true }
      await expectOneFailure(containing: ["received nothing after waiting", "advance it"]) {
        await store.receive(.factResponse("0 is a number"), timeout: .milliseconds(20))
      }
      await store.skipInFlightEffects()
      await store.finish()
    }

    @Test func sendingBeforeHandlingReceivedActionsFails() async {
      let clock = TestClock()
      let store = makeStore(clock)
      await store.send(.factButtonTapped) { $0.isLoading = true }
      await clock.advance(by: .seconds(1))
      await expectOneFailure(containing: ["Must handle 1 received action"]) {
        await store.send(.increment) { $0.count = 1 }
      }
      await store.skipReceivedActions()
      await store.finish()
    }

    @Test func actionLeftUnassertedBySendStaysReceivable() async {
      let clock = TestClock()
      let store = makeStore(clock)
      await store.send(.factButtonTapped) { $0.isLoading = true }
      await clock.advance(by: .seconds(1))
      await expectOneFailure(containing: ["Must handle 1 received action"]) {
        await store.send(.increment) { $0.count = 1 }
      }
      await expectOneFailure(containing: ["Must handle 1 received action"]) {
        await store.send(.increment) { $0.count = 2 }
      }
      await store.receive(.factResponse("0 is a number")) {
        $0.isLoading = false
        $0.fact = "0 is a number"
      }
      await store.send(.increment) { $0.count = 3 }
      await store.finish()
    }

    @Test func aTestStoreReleasedWithoutFinishChecksTheEnd() async {
      await expectOneFailure(containing: ["released without 'finish()'"]) {
        let store = makeStore(TestClock())
        await store.send(.startTimer)
      }
    }

    // MARK: - Reactors and feedback systems

    final class CounterReactor: Reactor {
      enum Action: Equatable, Sendable { case increase, load }
      enum Mutation: Equatable, Sendable { case setCount(Int), setFact(String) }
      struct State: Equatable, Sendable {
        var count = 0
        var fact: String?
      }
      func mutate(state: State, action: Action) -> Effect<Mutation> {
        switch action {
        case .increase: return .send(.setCount(state.count + 1))
        case .load:
          return .run { [count = state.count] send in await send(.setFact("fact \(count)")) }
        }
      }
      func reduce(state: inout State, mutation: Mutation) {
        switch mutation {
        case .setCount(let count): state.count = count
        case .setFact(let fact): state.fact = fact
        }
      }
    }

    @Test func aReactorTestStoreAppliesSyncMutationsAndReceivesAsyncOnes() async {
      let store = TestStore(initialState: CounterReactor.State(), reactor: CounterReactor())
      await store.send(.increase) { $0.count = 1 }
      await store.send(.load)
      await store.receive(.setFact("fact 1")) { $0.fact = "fact 1" }
      await store.finish()
    }

    struct CounterSystem: FeedbackSystem {
      struct State: Equatable, Sendable {
        var count = 1
        var message: String?
      }
      enum Event: Equatable, Sendable { case increment, setMessage(String?) }
      func reduce(into state: inout State, event: Event) {
        switch event {
        case .increment: state.count += 1
        case .setMessage(let message): state.message = message
        }
      }
      var feedbacks: [Feedback<State, Event>] {
        [
          Feedback(.onChanged(\.count)) {
            .setMessage($0.count.isMultiple(of: 3) ? "multiple of 3!!" : nil)
          }
        ]
      }
    }

    @Test func aFeedbackTestStoreReceivesFeedbackEvents() async {
      let store = TestStore(initialState: CounterSystem.State(), system: CounterSystem())
      await store.receive(.setMessage(nil))
      await store.send(.increment) { $0.count = 2 }
      await store.receive(.setMessage(nil))
      await store.send(.increment) { $0.count = 3 }
      await store.receive(.setMessage("multiple of 3!!")) { $0.message = "multiple of 3!!" }
      await store.finish()
    }

    // MARK: - Stub

    @Test func aStubRecordsActionsAndShowsForcedState() async {
      let stub = Stub(reactor: CounterReactor(), initialState: CounterReactor.State())
      stub.store.send(.increase)
      stub.store.send(.load)
      #expect(stub.actions == [.increase, .load])
      #expect(stub.store.count == 0)
      var seen: [Int] = []
      let token = stub.store.observe { seen.append($0.count) }
      stub.state.count = 42
      #expect(stub.store.count == 42)
      #expect(seen == [0, 42])
      token.cancel()
    }

    @Test func aStubRunsOneInputThroughTheReactor() async {
      let stub = Stub(reactor: CounterReactor(), initialState: CounterReactor.State(count: 41))
      let increased = await stub.test(input: .increase)
      #expect(increased.count == 42)
      let loaded = await stub.test(input: .load)
      #expect(loaded.fact == "fact 41")
      #expect(stub.state.count == 41)
    }
  }
}
