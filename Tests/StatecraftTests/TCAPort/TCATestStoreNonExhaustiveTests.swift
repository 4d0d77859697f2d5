import CasePathsCore
import Clocks
import StatecraftTesting
import Testing

@testable import Statecraft

extension Engine {
  /// The Composable Architecture's `TestStoreNonExhaustiveTests`, ported to Statecraft's
  /// spelling. Where TCA's effects wait on wall-clock time, these wait on a `TestClock`.
  @MainActor
  @Suite struct TCATestStoreNonExhaustiveTests {
    static func chain() -> Reduce<Int, Bool> {
      Reduce { state, action in
        state += 1
        return action ? .send(false) : .none
      }
    }

    static func sleeper(_ clock: TestClock<Duration>) -> Reduce<Int, Bool> {
      Reduce { _, _ in .run { _ in try await clock.sleep(for: .seconds(1)) } }
    }

    struct Counter: Reducer {
      struct State: Equatable, Sendable {
        var count = 0
        var isEven = true
      }
      enum Action: Equatable, Sendable { case increment, decrement }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .increment: state.count += 1
        case .decrement: state.count -= 1
        }
        state.isEven.toggle()
        return .none
      }
    }

    struct NonExhaustiveReceive: Reducer {
      struct State: Equatable, Sendable {
        var count = 0
        var int = 0
        var string = ""
      }
      enum Action: Equatable, Sendable, CasePathable {
        case onAppear, response1(Int), response2(String)
        struct AllCasePaths {
          var onAppear: AnyCasePath<Action, Void> {
            AnyCasePath(
              embed: { .onAppear }, extract: { if case .onAppear = $0 { () } else { nil } })
          }
          var response1: AnyCasePath<Action, Int> {
            AnyCasePath(embed: Action.response1) {
              if case .response1(let value) = $0 { value } else { nil }
            }
          }
          var response2: AnyCasePath<Action, String> {
            AnyCasePath(embed: Action.response2) {
              if case .response2(let value) = $0 { value } else { nil }
            }
          }
        }
        static var allCasePaths: AllCasePaths { AllCasePaths() }
      }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .onAppear:
          state = State()
          return .merge(.send(.response1(42)), .send(.response2("Hello")))
        case .response1(let int):
          state.count += 1
          state.int = int
          return .none
        case .response2(let string):
          state.count += 1
          state.string = string
          return .none
        }
      }
    }

    @Test func skipReceivedActionsNonStrict() async {
      let store = TestStore(initialState: 0) { Self.chain() }
      await store.send(true) { $0 = 1 }
      #expect(store.state == 1)
      await store.skipReceivedActions(strict: false)
      #expect(store.state == 2)
    }

    @Test func skipReceivedActionsStrict() async {
      let store = TestStore(initialState: 0) { Self.chain() }
      await store.send(true) { $0 = 1 }
      await store.receive(false) { $0 = 2 }
      #expect(store.state == 2)
      await expectOneFailure(containing: ["There were no received actions to skip."]) {
        await store.skipReceivedActions(strict: true)
      }
    }

    @Test func skipReceivedActionsNonExhaustive() async {
      let store = TestStore(initialState: 0) { Self.chain() }
      store.exhaustivity = .off
      await store.send(true) { $0 = 1 }
      #expect(store.state == 1)
      await store.skipReceivedActions(strict: false)
      #expect(store.state == 2)
    }

    @Test func skipReceivedActionsPartialExhaustive() async {
      let store = TestStore(initialState: 0) { Self.chain() }
      store.exhaustivity = .off(showSkippedAssertions: true)
      await store.send(true) { $0 = 1 }
      #expect(store.state == 1)
      await store.skipReceivedActions(strict: false)
      #expect(store.state == 2)
    }

    @Test func cancelInFlightEffectsNonStrict() async {
      let store = TestStore(initialState: 0) { Self.sleeper(TestClock()) }
      await store.send(true)
      await store.skipInFlightEffects(strict: false)
    }

    @Test func cancelInFlightEffectsStrict() async {
      let store = TestStore(initialState: 0) { Reduce<Int, Bool> { _, _ in .run { _ in } } }
      let task = await store.send(true)
      await task.finish(timeout: .milliseconds(500))
      await expectOneFailure(containing: ["There were no in-flight effects to skip."]) {
        await store.skipInFlightEffects(strict: true)
      }
    }

    @Test func cancelInFlightEffectsNonExhaustive() async {
      let store = TestStore(initialState: 0) { Self.sleeper(TestClock()) }
      store.exhaustivity = .off
      await store.send(true)
      await store.skipInFlightEffects(strict: false)
    }

    @Test func cancelInFlightEffectsPartialExhaustive() async {
      let store = TestStore(initialState: 0) { Self.sleeper(TestClock()) }
      store.exhaustivity = .off(showSkippedAssertions: true)
      await store.send(true)
      await store.skipInFlightEffects(strict: false)
    }

    @Test func ignoreReceiveActionsPartialExhaustive() async {
      let store = TestStore(initialState: 0) {
        Reduce<Int, Bool> { _, action in action ? .send(false) : .none }
      }
      store.exhaustivity = .off(showSkippedAssertions: true)
      await store.send(true)
    }

    @Test func ignoreReceiveActionsNonExhaustive() async {
      let store = TestStore(initialState: 0) {
        Reduce<Int, Bool> { _, action in action ? .send(false) : .none }
      }
      store.exhaustivity = .off
      await store.send(true)
    }

    @Test func ignoreInFlightEffectsPartialExhaustive() async {
      let store = TestStore(initialState: 0) { Self.sleeper(TestClock()) }
      store.exhaustivity = .off(showSkippedAssertions: true)
      await store.send(true)
    }

    @Test func ignoreInFlightEffectsNonExhaustive() async {
      let store = TestStore(initialState: 0) { Self.sleeper(TestClock()) }
      store.exhaustivity = .off
      await store.send(true)
    }

    @Test func nonExhaustiveSendPartialExhaustive() async {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      store.exhaustivity = .off(showSkippedAssertions: true)
      await store.send(.increment) { $0.count = 1 }
      await store.send(.increment) { $0.isEven = true }
      await store.send(.increment) {
        $0.count = 3
        $0.isEven = false
      }
    }

    @Test func nonExhaustiveSendPartialExhaustivePrefix() async {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      store.exhaustivity = .off(showSkippedAssertions: true)
      await store.send(.increment) { $0.count = 1 }
    }

    @Test func nonExhaustiveSendPartialExhaustiveBadAssertion() async {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      store.exhaustivity = .off(showSkippedAssertions: true)
      await expectOneFailure(containing: ["does not match the assertion", "count"]) {
        await store.send(.increment) { $0.count = 0 }
      }
    }

    @Test func nonExhaustiveSendNonExhaustive() async {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      store.exhaustivity = .off
      await store.send(.increment) { $0.count = 1 }
    }

    struct Login: Reducer {
      struct State: Equatable, Sendable {
        var count = 0
        var isLoggedIn = false
      }
      enum Action: Equatable, Sendable { case decrement, increment, loggedInResponse(Bool) }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .decrement:
          state.count -= 1
          return .none
        case .increment:
          state.count += 1
          return .send(.loggedInResponse(true))
        case .loggedInResponse(let response):
          state.isLoggedIn = response
          return .none
        }
      }
    }

    @Test func sendSkipReceivedActions() async {
      let store = TestStore(initialState: Login.State()) { Login() }
      store.exhaustivity = .off(showSkippedAssertions: true)
      await store.send(.increment) { $0.count = 1 }
      await store.send(.decrement) { $0.count = 0 }
    }

    @Test func sendSkipReceivedActionsBadAssertion() async {
      let store = TestStore(initialState: Login.State()) { Login() }
      store.exhaustivity = .off(showSkippedAssertions: true)
      await store.send(.increment) { $0.count = 1 }
      await expectOneFailure(containing: ["does not match the assertion", "count"]) {
        await store.receive(.loggedInResponse(true)) {
          $0.count = 2
          $0.isLoggedIn = true
        }
      }
    }

    @Test func multipleSendsWithAssertionOnLast() async {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      store.exhaustivity = .off(showSkippedAssertions: true)
      await store.send(.increment)
      #expect(store.state == Counter.State(count: 1, isEven: false))
      await store.send(.increment)
      #expect(store.state == Counter.State(count: 2, isEven: true))
      await store.send(.increment) { $0.count = 3 }
      #expect(store.state == Counter.State(count: 3, isEven: false))
    }

    @Test func receiveStateChange() async {
      let store = TestStore(initialState: NonExhaustiveReceive.State()) { NonExhaustiveReceive() }
      store.exhaustivity = .off(showSkippedAssertions: true)
      await store.send(.onAppear)
      #expect(store.state == NonExhaustiveReceive.State(count: 0, int: 0, string: ""))
      await store.receive(.response1(42)) { $0.int = 42 }
      #expect(store.state == NonExhaustiveReceive.State(count: 1, int: 42, string: ""))
      await store.receive(.response2("Hello")) { $0.string = "Hello" }
      #expect(store.state == NonExhaustiveReceive.State(count: 2, int: 42, string: "Hello"))
    }

    @Test func receiveSkipAction() async {
      let store = TestStore(initialState: NonExhaustiveReceive.State()) { NonExhaustiveReceive() }
      store.exhaustivity = .off(showSkippedAssertions: true)
      await store.send(.onAppear)
      #expect(store.state == NonExhaustiveReceive.State(count: 0, int: 0, string: ""))
      await store.receive(.response2("Hello")) {
        $0.count = 2
        $0.string = "Hello"
      }
      #expect(store.state == NonExhaustiveReceive.State(count: 2, int: 42, string: "Hello"))
    }

    @Test func sendWithUnreceivedAction() async {
      let store = TestStore(initialState: NonExhaustiveReceive.State()) { NonExhaustiveReceive() }
      store.exhaustivity = .off(showSkippedAssertions: true)
      await store.send(.onAppear)
      await store.send(.onAppear)
    }

    @Test func sendWithUnreceivedActionsSkipsActions() async {
      enum Action: Equatable, Sendable { case tap, response(Int) }
      let store = TestStore(initialState: 0) {
        Reduce<Int, Action> { state, action in
          switch action {
          case .tap:
            state += 1
            return .run { [state] send in await send(.response(state + 42)) }
          case .response(let number):
            state = number
            return .none
          }
        }
      }
      store.exhaustivity = .off
      await store.send(.tap)
      #expect(store.state == 1)
      await store.send(.tap)
      #expect(store.state == 44)
      await store.skipReceivedActions()
      #expect(store.state == 86)
    }

    @Test func partialExhaustivityPrefix() async {
      enum Action: Equatable, Sendable { case buttonTapped, response(Int) }
      let clock = TestClock()
      let store = TestStore(initialState: 0) {
        Reduce<Int, Action> { state, action in
          switch action {
          case .buttonTapped:
            state += 1
            return .run { send in
              await send(.response(42))
              try await clock.sleep(for: .seconds(1))
              await send(.response(1729))
            }
          case .response(let number):
            state = number
            return .none
          }
        }
      }
      store.exhaustivity = .off(showSkippedAssertions: true)
      await store.send(.buttonTapped)
      await clock.advance(by: .milliseconds(500))
      await store.send(.buttonTapped) { $0 = 43 }
      await clock.advance(by: .milliseconds(500))
      await store.skipInFlightEffects()
      await store.skipReceivedActions()
    }
    @Test func casePathReceivePartialExhaustive() async {
      let store = TestStore(initialState: NonExhaustiveReceive.State()) { NonExhaustiveReceive() }
      store.exhaustivity = .off(showSkippedAssertions: true)
      await store.send(.onAppear)
      await store.receive(\.response1) { $0.int = 42 }
      await store.receive(\.response2) { $0.string = "Hello" }
    }

    @Test func casePathReceiveNonExhaustive() async {
      let store = TestStore(initialState: NonExhaustiveReceive.State()) { NonExhaustiveReceive() }
      store.exhaustivity = .off
      await store.send(.onAppear)
      await store.receive(\.response1) { $0.int = 42 }
      await store.receive(\.response2) { $0.string = "Hello" }
    }

    @Test func casePathReceiveExhaustive() async {
      let store = TestStore(initialState: NonExhaustiveReceive.State()) { NonExhaustiveReceive() }
      await store.send(.onAppear)
      await store.receive(\.response1) {
        $0.count = 1
        $0.int = 42
      }
      await store.receive(\.response2) {
        $0.count = 2
        $0.string = "Hello"
      }
    }

    @Test func casePathReceiveSkipReceivedAction() async {
      let store = TestStore(initialState: NonExhaustiveReceive.State()) { NonExhaustiveReceive() }
      store.exhaustivity = .off(showSkippedAssertions: true)
      await store.send(.onAppear)
      await store.receive(\.response2) { $0.string = "Hello" }
    }

    @Test func casePathReceiveWrongAction() async {
      let store = TestStore(initialState: NonExhaustiveReceive.State()) { NonExhaustiveReceive() }
      store.exhaustivity = .off(showSkippedAssertions: true)
      await store.send(.onAppear)
      await expectOneFailure(containing: ["Expected to receive"]) {
        await store.receive(\.onAppear)
      }
    }

    @Test func casePathReceiveReceivedExtraAction() async {
      let store = TestStore(initialState: NonExhaustiveReceive.State()) { NonExhaustiveReceive() }
      store.exhaustivity = .off(showSkippedAssertions: true)
      await store.send(.onAppear)
      await store.receive(\.response2)
      await expectOneFailure(containing: ["Expected to receive"]) {
        await store.receive(\.response2)
      }
    }

    enum Timed: Equatable, Sendable { case tap, response1, response2 }

    static func timed(_ clock: TestClock<Duration>, _ first: Timed, _ second: Timed)
      -> Reduce<Int, Timed>
    {
      Reduce { _, action in
        guard action == .tap else { return .none }
        return .run { send in
          try await clock.sleep(for: .milliseconds(10))
          await send(first)
          try await clock.sleep(for: .milliseconds(10))
          await send(second)
        }
      }
    }

    @Test func receiveNonExhaustiveWithTimeout() async {
      let clock = TestClock()
      let store = TestStore(initialState: 0) { Self.timed(clock, .response1, .response2) }
      store.exhaustivity = .off
      await store.send(.tap)
      await clock.advance(by: .milliseconds(20))
      await store.receive(.response2, timeout: .seconds(1))
    }

    @Test func receiveNonExhaustiveWithTimeoutMultipleMatching() async {
      let clock = TestClock()
      let store = TestStore(initialState: 0) { Self.timed(clock, .response2, .response2) }
      store.exhaustivity = .off
      await store.send(.tap)
      await clock.advance(by: .milliseconds(20))
      await store.receive(.response2, timeout: .seconds(1))
      await store.receive(.response2, timeout: .seconds(1))
    }

    @Test func nonExhaustiveShowSkippedAssertionsExpectedStateToChange() async {
      let store = TestStore(initialState: 0) { Reduce<Int, Int> { _, _ in .none } }
      store.exhaustivity = .off(showSkippedAssertions: true)
      // NB: as in TCA, a non-exhaustive store shows the closure that describes no change as a
      // skipped assertion (a warning), not a failure.
      await store.send(0) { $0 = 0 }
      store.assert { $0 = 0 }
    }

    struct KrzysztofExample: Reducer {
      struct State: Equatable, Sendable {
        var name = "Krzysztof"
        var surname = "Zabłocki"
        var age = 33
        var mood = 0
      }
      enum Action: Equatable, Sendable {
        case changeIdentity(name: String, surname: String)
        case changeAge(Int)
        case changeMood(Int)
        case advanceAgeAndMoodAfterDelay
      }
      let clock: TestClock<Duration>
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .changeIdentity(let name, let surname):
          state.name = name
          state.surname = surname
          return .none
        case .advanceAgeAndMoodAfterDelay:
          return .run { [state, clock] send in
            try await clock.sleep(for: .seconds(1))
            await send(.changeAge(state.age + 1))
            await send(.changeMood(state.mood + 1))
          }
        case .changeAge(let age):
          state.age = age
          return .none
        case .changeMood(let mood):
          state.mood = mood
          return .none
        }
      }
    }

    @Test func krzysztofExample1() async {
      let store = TestStore(initialState: KrzysztofExample.State()) {
        KrzysztofExample(clock: TestClock())
      }
      store.exhaustivity = .off
      await store.send(.changeIdentity(name: "Marek", surname: "Ignored")) { $0.name = "Marek" }
    }

    @Test func krzysztofExample2() async {
      let store = TestStore(initialState: KrzysztofExample.State()) {
        KrzysztofExample(clock: TestClock())
      }
      store.exhaustivity = .off
      await store.send(.changeIdentity(name: "Adam", surname: "Stern"))
      await store.send(.changeIdentity(name: "Piotr", surname: "Galiszewski"))
      await store.send(.changeIdentity(name: "Merowing", surname: "Info")) {
        $0.name = "Merowing"
        $0.surname = "Info"
      }
    }

    @Test func krzysztofExample3() async {
      let clock = TestClock()
      let store = TestStore(initialState: KrzysztofExample.State()) {
        KrzysztofExample(clock: clock)
      }
      store.exhaustivity = .off
      await store.send(.advanceAgeAndMoodAfterDelay)
      await clock.advance(by: .seconds(1))
      await store.receive(.changeAge(34)) { $0.age = 34 }
      #expect(store.state.age == 34)
    }
  }
}
