import Clocks
import StatecraftTesting
import Testing

@testable import Statecraft

/// The TCA migration guide's counter (a fact, a timer), converted and run.
extension Engine {
  @MainActor
  @Suite struct TCAMigrationTests {
    // docs:begin MigratingFromTCA
    struct NumberFactClient: Sendable {
      var fetch: @Sendable (Int) async throws -> String
    }

    struct CounterFeature: Reducer {
      struct State: Equatable {
        var count = 0
        var fact: String?
        var isLoading = false
        var isTimerRunning = false
      }

      enum Action: Equatable, Sendable {
        case decrementButtonTapped
        case factButtonTapped
        case factResponse(String)
        case incrementButtonTapped
        case timerTick
        case toggleTimerButtonTapped
      }

      enum CancelID { case timer }

      let clock: any Clock<Duration>
      let numberFact: NumberFactClient

      var body: some Reducer<State, Action> {
        Reduce { state, action in
          switch action {
          case .decrementButtonTapped:
            state.count -= 1
            state.fact = nil
            return .none
          case .factButtonTapped:
            state.fact = nil
            state.isLoading = true
            return .run { [count = state.count, numberFact] send in
              await send(.factResponse(try await numberFact.fetch(count)))
            }
          case .factResponse(let fact):
            state.fact = fact
            state.isLoading = false
            return .none
          case .incrementButtonTapped:
            state.count += 1
            state.fact = nil
            return .none
          case .timerTick:
            state.count += 1
            state.fact = nil
            return .none
          case .toggleTimerButtonTapped:
            state.isTimerRunning.toggle()
            guard state.isTimerRunning else { return .cancel(id: CancelID.timer) }
            return .run { [clock] send in
              while true {
                try await clock.sleep(for: .seconds(1))
                await send(.timerTick)
              }
            }
            .cancellable(id: CancelID.timer)
          }
        }
      }
    }
    // docs:end

    @Test func theTimerTicksUntilToggledOff() async {
      // docs:begin MigratingFromTCA
      let clock = TestClock()
      let store = TestStore(initialState: CounterFeature.State()) {
        CounterFeature(clock: clock, numberFact: NumberFactClient { "\($0) is a good number." })
      }
      await store.send(.toggleTimerButtonTapped) { $0.isTimerRunning = true }
      await clock.advance(by: .seconds(1))
      await store.receive(.timerTick) { $0.count = 1 }
      await store.send(.toggleTimerButtonTapped) { $0.isTimerRunning = false }
      await store.send(.factButtonTapped) { $0.isLoading = true }
      await store.receive(.factResponse("1 is a good number.")) {
        $0.isLoading = false
        $0.fact = "1 is a good number."
      }
      await store.finish()
      // docs:end
    }

    @Test func aStoreDrivesTheSameFeature() async {
      let store = Store(initialState: CounterFeature.State()) {
        CounterFeature(
          clock: ImmediateClock(), numberFact: NumberFactClient { "\($0) is a good number." })
      }
      store.send(.incrementButtonTapped)
      await store.send(.factButtonTapped).finish()
      #expect(store.fact == "1 is a good number.")
    }
  }
}
