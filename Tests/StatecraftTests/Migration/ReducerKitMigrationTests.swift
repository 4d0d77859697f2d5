import ConcurrencyExtras
import StatecraftTesting
import Testing

@testable import Statecraft

/// The ReducerKit migration guide's counter, converted and run.
extension Engine {
  @MainActor
  @Suite struct ReducerKitMigrationTests {
    // docs:begin MigratingFromReducerKit
    struct CounterReducer: Reducer {
      struct State: Equatable {
        var count = 0
        var isLoading = false
        var numberFact: String?
      }

      enum Action: Equatable, Sendable {
        case increment
        case decrement
        case numberFactButtonTapped
        case numberFactResponse(String)
      }

      enum CancelID { case fact }

      let numberFact: @Sendable (Int) async throws -> String

      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .increment:
          state.count += 1
          return .none
        case .decrement:
          state.count -= 1
          return .none
        case .numberFactButtonTapped:
          state.isLoading = true
          state.numberFact = nil
          return .run { [count = state.count] send in
            await send(.numberFactResponse(try await numberFact(count)))
          } catch: { _, send in
            await send(.numberFactResponse("Could not load a fact"))
          }
          .cancellable(id: CancelID.fact, cancelInFlight: true)
        case .numberFactResponse(let fact):
          state.isLoading = false
          state.numberFact = fact
          return .none
        }
      }
    }
    // docs:end

    struct Failure: Error {}

    @Test func theCounterLoadsAFact() async {
      // docs:begin MigratingFromReducerKit
      let store = TestStore(initialState: CounterReducer.State()) {
        CounterReducer(numberFact: { "\($0) is a number" })
      }
      await store.send(.increment) { $0.count = 1 }
      await store.send(.numberFactButtonTapped) { $0.isLoading = true }
      await store.receive(.numberFactResponse("1 is a number")) {
        $0.isLoading = false
        $0.numberFact = "1 is a number"
      }
      await store.finish()
      // docs:end
    }

    @Test func aFailedFactShowsTheFallback() async {
      let store = TestStore(initialState: CounterReducer.State()) {
        CounterReducer(numberFact: { _ in throw Failure() })
      }
      await store.send(.numberFactButtonTapped) { $0.isLoading = true }
      await store.receive(.numberFactResponse("Could not load a fact")) {
        $0.isLoading = false
        $0.numberFact = "Could not load a fact"
      }
      await store.finish()
    }

    @Test func releasingTheStoreCancelsTheFactRequest() async {
      let started = Gate()
      let wasCancelled = LockIsolated(false)
      var store: StoreOf<CounterReducer>? = Store(initialState: CounterReducer.State()) {
        CounterReducer(numberFact: { _ in
          started.open()
          do {
            try await Task.never()
          } catch {
            wasCancelled.setValue(true)
          }
          return ""
        })
      }
      let request = store?.send(.numberFactButtonTapped)
      await started.wait()
      store = nil
      await request?.finish()
      #expect(wasCancelled.value)
    }
  }
}
