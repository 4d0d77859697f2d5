import Foundation
import Statecraft
import StatecraftExploration
import StatecraftTestGenerator
import Testing

extension Engine {
  /// The tests exploration generates, for each idiom and for a race, are committed beside this
  /// file and run as tests of their own: each must equal what exploration writes today, and
  /// passes only if it replays the failing session as it ran.
  @MainActor
  @Suite struct GeneratedExplorationTests {
    static func configuration(
      _ feature: String, idiom: TestGenerator.Idiom = .reducer, testName: String
    ) -> TestGenerator.Configuration {
      TestGenerator.Configuration(
        reducer: feature, idiom: idiom, dependencies: ["$0.continuousClock = clock"],
        testName: testName, clock: TestGenerator.Clock(name: "clock"),
        extending: "Engine.GeneratedExplorationTests", ending: .skipInFlightEffects)
    }

    /// The committed file `name`, beside this one.
    static func committed(_ name: String, filePath: String = #filePath) throws -> String {
      let url = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        .appendingPathComponent("Generated").appendingPathComponent(name)
      return try String(contentsOf: url, encoding: .utf8)
    }

    static func expectCommitted(_ test: String?, as name: String) throws {
      let test = try #require(test)
      let committed = (try? committed(name)) ?? ""
      if test != committed { print("--- \(name)\n\(test)\n---") }
      #expect(test == committed, "Generated/\(name) is not what exploration writes now")
    }

    @Test func aRaceFoundInTheOtherOrderGetsATestWhoseClockHasThatOrder() async throws {
      let report = await explore(
        initialState: Refresher.State(),
        reducer: { Refresher() },
        actions: .constant(.refresh),
        options: ExplorationOptions(seed: 3, sessions: 200),
        test: Self.configuration("Refresher()", testName: "refresherRace"),
        reportsFailure: false,
        invariants: ExplorationTests.refresherInvariants)
      let failure = try #require(report.failure)
      #expect(failure.test?.contains("let clock = ExplorationClock(orders: [") == true)
      try Self.expectCommitted(failure.test, as: "RefresherRace.swift")
    }

    static func echoerInvariants(_ state: Echoer.State) throws {
      try invariant(state.echoes == state.taps, "every tap is echoed")
    }

    @Test func anEffectThatAnswersAtOnceHasAnsweredBeforeTheNextStep() async {
      // NB: a send lets the effects it starts run until they wait, as a test store's send
      // does: otherwise the invariant fails after the first tap, and no test store could replay
      // a session whose next action came before the effect ran.
      let report = await explore(
        initialState: Echoer.State(),
        reducer: { Echoer(losesThirdEcho: false) },
        actions: .constant(.tap),
        options: ExplorationOptions(seed: 13, sessions: 100),
        invariants: Self.echoerInvariants)
      #expect(report.failure == nil)
    }

    @Test func aFailureAfterEffectsThatAnswerAtOnceGetsATestThatReplaysIt() async throws {
      let report = await explore(
        initialState: Echoer.State(),
        reducer: { Echoer() },
        actions: .constant(.tap),
        options: ExplorationOptions(seed: 13, sessions: 100),
        test: Self.configuration("Echoer()", testName: "echoerThirdTap"),
        reportsFailure: false,
        invariants: Self.echoerInvariants)
      let failure = try #require(report.failure)
      #expect(failure.actions == [.tap, .tap, .tap])
      try Self.expectCommitted(failure.test, as: "EchoerThirdTap.swift")
    }

    @Test func aReactorsFailureGetsATest() async throws {
      let report = await explore(
        initialState: Thermostat.State(),
        reactor: Thermostat(),
        actions: .cases(of: Thermostat.Action.self),
        options: ExplorationOptions(seed: 7, sessions: 100),
        test: Self.configuration("Thermostat()", idiom: .reactor, testName: "thermostatLimit"),
        reportsFailure: false
      ) { state in
        try invariant(state.target <= Thermostat.limit, "the target stays within the limit")
      }
      try Self.expectCommitted(report.failure?.test, as: "ThermostatLimit.swift")
    }

    @Test func aFeedbackSystemsFailureGetsATest() async throws {
      let report = await explore(
        initialState: Pager.State(),
        system: Pager(),
        actions: ExplorationTests.pagerActions,
        options: ExplorationOptions(seed: 11, sessions: 100),
        test: Self.configuration("Pager()", idiom: .feedbackSystem, testName: "pagerReset"),
        reportsFailure: false,
        invariants: ExplorationTests.pagerInvariants)
      try Self.expectCommitted(report.failure?.test, as: "PagerReset.swift")
    }

    @Test func aClockGivenAnOrderResumesSleepersDueTogetherInItHoweverTimeIsSplit() async throws {
      /// The order in which three sleepers due at 500 ms resume while `advance` moves `clock`.
      func resumed(
        on clock: ExplorationClock, _ advance: (ExplorationClock) async -> Void
      ) async throws -> [Int] {
        let order = ResumeOrder()
        let sleepers = (0..<3).map { index in
          Task { @MainActor in
            try? await clock.sleep(until: .init(offset: .milliseconds(500)))
            order.values.append(index)
          }
        }
        // NB: on the main serial executor, each yield runs the sleepers' jobs queued before it.
        for _ in 0..<10 where clock.sleeperCount < 3 { await Task.yield() }
        try #require(clock.sleeperCount == 3)
        await advance(clock)
        for sleeper in sleepers { await sleeper.value }
        return order.values
      }
      #expect(
        try await resumed(on: ExplorationClock()) { await $0.advance(by: .seconds(1)) } == [
          0, 1, 2,
        ])
      let session = ExplorationClock()
      let sessionOrder = try await resumed(on: session) {
        await $0.advance(by: .seconds(1), order: 5)
      }
      #expect(sessionOrder != [0, 1, 2])
      #expect(session.reorderings == [.milliseconds(500): 5])
      let replayed = try await resumed(on: ExplorationClock(orders: session.reorderings)) {
        for step in [200, 300, 500] { await $0.advance(by: .milliseconds(step)) }
      }
      #expect(replayed == sessionOrder)
    }
  }
}

/// The order in which sleepers resumed.
@MainActor
private final class ResumeOrder {
  var values: [Int] = []
}
