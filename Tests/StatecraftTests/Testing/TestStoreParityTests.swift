import CasePathsCore
import Clocks
import ConcurrencyExtras
import StatecraftTesting
import Testing

@testable import Statecraft

extension Engine {
  /// What TCA's test store offers: case key paths with a payload, `strict:` skips,
  /// `store.assert`, `finish(timeout:)` on a task, and the main serial executor turned on by the
  /// test store itself.
  @MainActor
  @Suite struct TestStoreParityTests {
    struct Feature: Reducer {
      struct State: Equatable, Sendable { var count = 0 }
      enum Action: Equatable, Sendable, CasePathable {
        case refresh
        case setCount(Int)
        case loaded(Int)

        struct AllCasePaths {
          var refresh: AnyCasePath<Action, Void> {
            AnyCasePath(embed: { .refresh }, extract: { if case .refresh = $0 { () } else { nil } })
          }
          var setCount: AnyCasePath<Action, Int> {
            AnyCasePath(embed: Action.setCount) {
              if case .setCount(let value) = $0 { value } else { nil }
            }
          }
          var loaded: AnyCasePath<Action, Int> {
            AnyCasePath(embed: Action.loaded) {
              if case .loaded(let value) = $0 { value } else { nil }
            }
          }
        }
        static var allCasePaths: AllCasePaths { AllCasePaths() }
      }

      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .refresh:
          return .run { [count = state.count] send in await send(.loaded(count + 1)) }
        case .setCount(let count):
          state.count = count
          return .none
        case .loaded(let count):
          state.count = count
          return .none
        }
      }
    }

    @Test func sendAndReceiveByCaseKeyPathAndValue() async {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(\.setCount, 5) { $0.count = 5 }
      await store.send(\.refresh)
      await store.receive(\.loaded, 6) { $0.count = 6 }
      await store.finish()
    }

    @Test func receiveByCaseKeyPathFailsOnAnotherValue() async {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(\.refresh)
      await expectOneFailure(containing: ["Received unexpected action", "loaded(1)"]) {
        await store.receive(\.loaded, 2) { $0.count = 1 }
      }
      await store.finish()
    }

    @Test func strictSkipsFailWhenThereIsNothingToSkip() async {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await expectOneFailure(containing: ["There were no received actions to skip."]) {
        await store.skipReceivedActions()
      }
      await expectOneFailure(containing: ["There were no in-flight effects to skip."]) {
        await store.skipInFlightEffects()
      }
      await store.skipReceivedActions(strict: false)
      await store.skipInFlightEffects(strict: false)
      await store.finish()
    }

    @Test func aTaskThatDoesNotFinishInTimeFails() async {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      let task = await store.send(\.refresh)
      await task.finish(timeout: .seconds(1))
      await store.receive(\.loaded, 1) { $0.count = 1 }
      let timer = TestStore(initialState: CancelledEffectTests.Timer.State()) {
        CancelledEffectTests.Timer()
      }
      let running = await timer.send(.start) { $0.isOn = true }
      await expectOneFailure(containing: ["Expected the task to finish", "still running"]) {
        await running.finish(timeout: .milliseconds(10))
      }
      running.cancel()
      await store.finish()
      await timer.finish()
    }

    /// A test cancelled while a task's `finish(timeout:)` waits (as a time limit cancels it)
    /// stops waiting then, not at the end of the timeout.
    @Test(.timeLimit(.minutes(1)))
    func aTasksFinishStopsWaitingWhenTheTestIsCancelled() async {
      let timer = TestStore(initialState: CancelledEffectTests.Timer.State()) {
        CancelledEffectTests.Timer()
      }
      let running = await timer.send(.start) { $0.isOn = true }
      let waiting = Task {
        await expectOneFailure(containing: ["Expected the task to finish", "still running"]) {
          await running.finish(timeout: .seconds(3_600))
        }
      }
      await Task.yield()
      waiting.cancel()
      await waiting.value
      #expect(running.isCancelled == false)
      running.cancel()
      await timer.finish()
    }

    @Test func theTestStoreTurnsOnTheMainSerialExecutor() async {
      uncheckedUseMainSerialExecutor = false
      defer { uncheckedUseMainSerialExecutor = true }
      let store = TestStore(initialState: Feature.State()) { Feature() }
      #expect(uncheckedUseMainSerialExecutor)
      await store.finish()
      #expect(!uncheckedUseMainSerialExecutor)

      var released: TestStoreOf<Feature>? = TestStore(initialState: Feature.State()) {
        Feature()
      }
      #expect(uncheckedUseMainSerialExecutor)
      released = nil
      #expect(!uncheckedUseMainSerialExecutor)
      _ = released
    }

    @Test func sendLetsTheEffectsItStartedRunAsInTCA() async {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.send(\.refresh)
      await expectOneFailure(containing: ["Must handle 1 received action", "loaded(1)"]) {
        await store.send(\.setCount, 5) { $0.count = 5 }
      }
      await store.receive(\.loaded, 1) { $0.count = 1 }
      await store.finish()
    }

    @Test func withExhaustivityRelaxesOnlyItsOperation() async {
      let store = TestStore(initialState: Feature.State()) { Feature() }
      await store.withExhaustivity(.off) {
        await store.send(\.refresh)
        await store.send(\.setCount, 5)
      }
      #expect(store.exhaustivity == .on)
      await expectOneFailure(containing: ["the test asserted no change"]) {
        await store.send(\.setCount, 6)
      }
      await store.finish()
    }

    @Test func aSkippedEffectKeepsRunningAndItsActionIsReceived() async {
      let clock = TestClock()
      let store = TestStore(initialState: CancelledEffectTests.Timer.State()) {
        Reduce<CancelledEffectTests.Timer.State, CancelledEffectTests.Timer.Action> {
          state, action in
          switch action {
          case .start:
            return .run { [clock] send in
              try await clock.sleep(for: .seconds(1))
              await send(.stop)
            }
          case .stop:
            state.isOn = true
            return .none
          }
        }
      }
      await store.send(.start)
      await store.skipInFlightEffects()
      await clock.advance(by: .seconds(1))
      await store.receive(.stop) { $0.isOn = true }
      await store.finish()
    }
  }
}
