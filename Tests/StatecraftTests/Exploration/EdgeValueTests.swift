import Statecraft
import StatecraftExploration
import Testing

extension Engine {
  /// Shrinking the integers a generator draws.
  @MainActor
  @Suite struct EdgeValueTests {
    /// A gauge that takes any value it is sent: a bug planted for the edges to find.
    struct Gauge: Reducer {
      struct State: Equatable, Sendable { var value = 0 }
      enum Action: Equatable, Sendable { case set(Int) }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .set(let value): state.value = value
        }
        return .none
      }
    }

    /// Any `Int` at all, shrunk toward `Int.min`: the distance between them does not fit an
    /// `Int` (working it out trapped).
    @Test func anIntegerOfTheWholeRangeShrinksWithoutOverflow() async throws {
      let report = await explore(
        initialState: Gauge.State(),
        reducer: { Gauge() },
        actions: ValueGenerator<Int>.int(in: Int.min...Int.max).map(Gauge.Action.set),
        options: ExplorationOptions(seed: 41, sessions: 20, shrinkBudget: 50),
        reportsFailure: false
      ) { state in
        try invariant(state.value <= 0, "the value is not positive")
      }
      let failure = try #require(report.failure)
      guard case .send(.set(let value)) = try #require(failure.steps.first) else { return }
      #expect(failure.steps.count == 1)
      #expect(value > 0)
    }
  }
}
