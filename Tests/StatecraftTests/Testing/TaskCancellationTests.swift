import Clocks
import IdentifiedCollections
import StatecraftTesting
import Testing

@testable import Statecraft

extension Engine {
  /// `Task.cancel(id:)` in an effect cancels what `.cancel(id:)` from the same feature would: in
  /// the same store and the same child instance.
  @MainActor
  @Suite struct TaskCancellationTests {
    struct Timer: Reducer {
      struct State: Equatable, Identifiable, Sendable {
        var id = 0
        var ticks = 0
        var isStopped = false
      }
      enum Action: Equatable, Sendable { case start, stopFromEffect, stopped, tick }
      enum CancelID { case timer }
      let clock: TestClock<Duration>
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .start:
          return .run { [clock] send in
            for await _ in clock.timer(interval: .seconds(1)) { await send(.tick) }
          }
          .cancellable(id: CancelID.timer)
        case .stopFromEffect:
          return .run { send in
            await Task.cancel(id: CancelID.timer)
            await send(.stopped)
          }
        case .stopped:
          state.isStopped = true
          return .none
        case .tick:
          state.ticks += 1
          return .none
        }
      }
    }

    @Test func anEffectCancelsAnotherByID() async {
      let clock = TestClock()
      let store = TestStore(initialState: Timer.State()) { Timer(clock: clock) }
      await store.send(.start)
      await clock.advance(by: .seconds(1))
      await store.receive(.tick) { $0.ticks = 1 }
      await store.send(.stopFromEffect)
      await store.receive(.stopped) { $0.isStopped = true }
      await clock.advance(by: .seconds(5))
      await store.finish()
    }

    struct Rows: Reducer {
      struct State: Equatable, Sendable {
        var rows: IdentifiedArrayOf<Timer.State> = [Timer.State(id: 1), Timer.State(id: 2)]
      }
      enum Action: Equatable, Sendable {
        case rows(IdentifiedActionOf<Timer>)
        static let rowsCase = casePath(Action.rows) {
          if case .rows(let action) = $0 { action } else { nil }
        }
      }
      let clock: TestClock<Duration>
      var body: some Reducer<State, Action> {
        Reduce { _, _ in .none }
          .forEach(\.rows, action: Action.rowsCase) { Timer(clock: clock) }
      }
    }

    @Test func itCancelsOnlyInTheCallingChildInstance() async {
      let clock = TestClock()
      let store = TestStore(initialState: Rows.State()) { Rows(clock: clock) }
      await store.send(.rows(.element(id: 1, action: .start)))
      await store.send(.rows(.element(id: 2, action: .start)))
      await store.send(.rows(.element(id: 1, action: .stopFromEffect)))
      await store.receive(.rows(.element(id: 1, action: .stopped))) {
        $0.rows[id: 1]?.isStopped = true
      }
      await clock.advance(by: .seconds(1))
      await store.receive(.rows(.element(id: 2, action: .tick))) { $0.rows[id: 2]?.ticks = 1 }
      await store.skipInFlightEffects()
      await store.finish()
    }

    @Test func callingItOutsideAnEffectIsReported() async {
      await expectOneFailure(containing: ["'Task.cancel(id:)' was called outside an effect"]) {
        await Task.cancel(id: Timer.CancelID.timer)
      }
    }
  }
}
