import Statecraft
import StatecraftExploration
import Testing

extension Engine {
  /// The edge-biased generators: what they draw, and that exploration shrinks what they find.
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

    @Test func theEdgesOfARangeAreItsBoundsTheValuesPastThemAndTheExtremes() {
      #expect(
        ValueGenerator<Int>.edgeIntegers(of: 0...100) == [0, 100, -1, 101, 1, .min, .max])
      #expect(ValueGenerator<Int>.edgeIntegers(of: Int.min...Int.max) == [.min, .max, -1, 0, 1])
      #expect(ValueGenerator<Int>.edgeIntegers(of: 5...5) == [5, 4, 6, -1, 0, 1, .min, .max])
    }

    @Test func anEdgeBiasedIntegerIsUsuallyInRangeAndOftenAnEdge() {
      var random = SeededRandom(seed: 41)
      let generator = ValueGenerator<Int>.edgeBiasedInt(in: 10...20)
      let values = (0..<3_000).map { _ in generator.generate(using: &random) }
      let inRange = values.count { (10...20).contains($0) }
      #expect(inRange > 1_800 && inRange < 2_400)
      for edge in ValueGenerator<Int>.edgeIntegers(of: 10...20) {
        #expect(values.contains(edge), "\(edge) is drawn")
      }
      // NB: some edges are any `Int` at all, outside the named ones.
      #expect(values.contains { !(9...21).contains($0) && ![-1, 0, 1, .min, .max].contains($0) })
    }

    @Test func anEdgeBiasedStringIsUsuallyTypicalAndOftenAnEdge() {
      var random = SeededRandom(seed: 41)
      let generator = ValueGenerator<String>.edgeBiasedString(from: ["Milk"], longerThan: 10)
      let values = (0..<2_000).map { _ in generator.generate(using: &random) }
      let typical = values.count { $0 == "Milk" }
      #expect(typical > 1_200 && typical < 1_600)
      for edge in ValueGenerator<String>.edgeStrings(longerThan: 10) {
        #expect(values.contains(edge), "\(edge.debugDescription.prefix(40)) is drawn")
      }
      let edges = ValueGenerator<String>.edgeStrings(longerThan: 10)
      #expect(edges.contains(""))
      #expect(edges.contains { $0.count == 11 })
      #expect(edges.contains { $0.count > 65_536 })
      #expect(edges.contains { $0.unicodeScalars.contains("\u{1B}") })
    }

    /// Only a huge value breaks the gauge: the failure is found among the edges, and shrinks
    /// toward a negative bound by halves, down to less than twice the first value that fails.
    @Test func aHugeValueIsFoundAndShrunkToTheFirstThatFails() async throws {
      let report = await explore(
        initialState: Gauge.State(),
        reducer: { Gauge() },
        actions: ValueGenerator<Int>.edgeBiasedInt(in: -5...5).map(Gauge.Action.set),
        options: ExplorationOptions(seed: 41, sessions: 100, shrinkBudget: 200),
        reportsFailure: false
      ) { state in
        try invariant(state.value < 1_000_000, "the value stays below a million")
      }
      let failure = try #require(report.failure)
      #expect(failure.reason == .invariant("the value stays below a million"))
      guard case .send(.set(let value)) = try #require(failure.steps.first) else { return }
      #expect(failure.steps.count == 1)
      #expect((1_000_000...2_000_005).contains(value))
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

    /// A string that breaks a limit shrinks to a string one past it.
    @Test func aLongStringIsShrunkToTheShortestThatFails() async throws {
      struct Note: Reducer {
        struct State: Equatable, Sendable { var text = "" }
        enum Action: Equatable, Sendable { case set(String) }
        func reduce(into state: inout State, action: Action) -> Effect<Action> {
          switch action {
          case .set(let text): state.text = text
          }
          return .none
        }
      }
      let report = await explore(
        initialState: Note.State(),
        reducer: { Note() },
        actions: ValueGenerator<String>.edgeBiasedString(from: ["hi"], longerThan: 20)
          .map(Note.Action.set),
        options: ExplorationOptions(seed: 41, sessions: 100),
        reportsFailure: false
      ) { state in
        try invariant(state.text.count <= 20, "the text has at most 20 characters")
      }
      let failure = try #require(report.failure)
      guard case .send(.set(let text)) = try #require(failure.steps.first) else {
        Issue.record("expected a send")
        return
      }
      #expect(failure.steps.count == 1)
      #expect(text.count == 21)
    }
  }
}
