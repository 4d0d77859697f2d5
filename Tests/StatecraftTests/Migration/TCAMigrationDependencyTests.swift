import Clocks
import StatecraftTesting
import Testing

@testable import Statecraft

/// The TCA counter with `@Dependency`, exactly as the migration guide's "With `@Dependency`"
/// section shows it.
enum DependencyMigration {
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
      case factButtonTapped
      case factResponse(String)
      case timerTick
      case toggleTimerButtonTapped
    }

    enum CancelID { case timer }

    @Dependency(\.continuousClock) var clock
    @Dependency(\.migrationNumberFact) var numberFact

    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case .factButtonTapped:
          state.fact = nil
          state.isLoading = true
          return .run { [count = state.count] send in
            try await send(.factResponse(self.numberFact.fetch(count)))
          }
        case .factResponse(let fact):
          state.fact = fact
          state.isLoading = false
          return .none
        case .timerTick:
          state.count += 1
          state.fact = nil
          return .none
        case .toggleTimerButtonTapped:
          state.isTimerRunning.toggle()
          if state.isTimerRunning {
            return .run { send in
              for await _ in self.clock.timer(interval: .seconds(1)) {
                await send(.timerTick)
              }
            }
            .cancellable(id: CancelID.timer)
          } else {
            return .cancel(id: CancelID.timer)
          }
        }
      }
    }
  }
}

extension DependencyMigration.NumberFactClient: DependencyKey {
  static let liveValue = Self { number in "\(number) is a number." }
}

extension DependencyValues {
  var migrationNumberFact: DependencyMigration.NumberFactClient {
    get { self[DependencyMigration.NumberFactClient.self] }
    set { self[DependencyMigration.NumberFactClient.self] = newValue }
  }
}

extension Engine.TCAMigrationTests {
  @Test func theCounterWithDependenciesRunsAsTCAWritesIt() async {
    let clock = TestClock()
    let store = TestStore(initialState: DependencyMigration.CounterFeature.State()) {
      DependencyMigration.CounterFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.migrationNumberFact.fetch = { "\($0) is a good number." }
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
  }

  @Test func aForgottenOverrideFailsWithTheDependencysName() async {
    let store = TestStore(initialState: DependencyMigration.CounterFeature.State()) {
      DependencyMigration.CounterFeature()
    }
    await withKnownIssue {
      await store.send(.factButtonTapped) { $0.isLoading = true }
      await store.receive(.factResponse("0 is a number.")) {
        $0.isLoading = false
        $0.fact = "0 is a number."
      }
    } matching: {
      $0.description.contains(#"@Dependency(\.migrationNumberFact) has no test implementation"#)
    }
  }
}
