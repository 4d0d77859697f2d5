import Statecraft
import StatecraftExploration
import StatecraftTestGenerator
import Testing

extension Engine {
  /// The test exploration writes for a failure, when its invariants have a name, replays the
  /// shrunk steps with `replay` and the same invariants: it fails on the bug and passes once the
  /// bug is fixed, for each idiom. The tests it wrote are committed in `Generated/` and run here
  /// against the fixed features (their configurations spell the fixed feature); each is also
  /// replayed against the buggy feature, where it must fail.
  @MainActor
  @Suite struct ReplayTests {
    static func configuration(
      _ feature: String, idiom: TestGenerator.Idiom = .reducer, testName: String
    ) -> TestGenerator.Configuration {
      TestGenerator.Configuration(
        reducer: feature, idiom: idiom, dependencies: ["$0.continuousClock = clock"],
        testName: testName, clock: TestGenerator.Clock(name: "clock"),
        extending: "Engine.ReplayTests", ending: .skipInFlightEffects)
    }

    static let picker = Invariants<Picker.State>("Engine.ReplayTests.picker") { state in
      try invariant(
        state.selection.map { $0 < state.items.count } ?? true,
        "the selection is an item of the list")
    }

    @Test func aReducersTestFailsOnTheBugAndPassesOnceFixed() async throws {
      let report = await explore(
        initialState: Picker.State(),
        reducer: { Picker() },
        actions: ExplorationTests.pickerActions,
        options: ExplorationOptions(seed: 1, sessions: 100),
        test: Self.configuration("Picker(offByOne: false)", testName: "pickerReplay"),
        reportsFailure: false,
        checking: Self.picker)
      let failure = try #require(report.failure)
      try GeneratedExplorationTests.expectCommitted(failure.test, as: "PickerReplay.swift")
      #expect(failure.test?.contains("checking: Engine.ReplayTests.picker") == true)
      #expect(failure.test?.contains("$0.items") == false, "no state is asserted")
      await withKnownIssue {
        let reason = await replay(
          initialState: Picker.State(), reducer: { Picker() }, steps: failure.steps,
          checking: Self.picker)
        #expect(reason == failure.reason)
      } matching: {
        $0.description.contains("the selection is an item of the list")
      }
      let fixed = await replay(
        initialState: Picker.State(), reducer: { Picker(offByOne: false) },
        steps: failure.steps, checking: Self.picker)
      #expect(fixed == nil)
    }

    static let refresher = Invariants<Refresher.State>("Engine.ReplayTests.refresher") { state in
      try invariant(
        state.inFlight > 0 || state.shown == state.version,
        "with nothing in flight, the latest version is shown")
    }

    @Test func aRacesTestKeepsTheOrderItWasFoundIn() async throws {
      let report = await explore(
        initialState: Refresher.State(),
        reducer: { Refresher() },
        actions: .constant(.refresh),
        options: ExplorationOptions(seed: 3, sessions: 200),
        test: Self.configuration("Refresher(cancelsInFlight: true)", testName: "refresherReplay"),
        reportsFailure: false,
        checking: Self.refresher)
      let failure = try #require(report.failure)
      try GeneratedExplorationTests.expectCommitted(failure.test, as: "RefresherReplay.swift")
      await withKnownIssue {
        let reason = await replay(
          initialState: Refresher.State(), reducer: { Refresher() }, steps: failure.steps,
          checking: Self.refresher)
        #expect(reason == failure.reason)
      } matching: {
        $0.description.contains("with nothing in flight, the latest version is shown")
      }
      // NB: in the default order the older response lands first: the race needs the order the
      // session found it in, which the steps keep.
      let defaultOrder = failure.steps.map { step -> ExplorationStep<Refresher.Action> in
        if case .advanceClock(let duration, _) = step {
          .advanceClock(by: duration, order: 0)
        } else {
          step
        }
      }
      #expect(defaultOrder != failure.steps)
      let inDefaultOrder = await replay(
        initialState: Refresher.State(), reducer: { Refresher() }, steps: defaultOrder,
        checking: Self.refresher)
      #expect(inDefaultOrder == nil)
      let fixed = await replay(
        initialState: Refresher.State(), reducer: { Refresher(cancelsInFlight: true) },
        steps: failure.steps, checking: Self.refresher)
      #expect(fixed == nil)
    }

    static let noInvariants = Invariants<TimerSheet.State>("Engine.ReplayTests.noInvariants") {
      _ in
    }

    @Test func aTestChecksTheEndOfTheSessionAsExplorationDid() async throws {
      let report = await explore(
        initialState: TimerSheet.State(),
        reducer: { TimerSheet() },
        actions: ExplorationTests.timerSheetActions,
        options: ExplorationOptions(seed: 5, sessions: 100),
        sessionEnd: .teardown([.close]),
        test: Self.configuration(
          "TimerSheet(timerOutlivesChild: false)", testName: "timerSheetReplay"),
        reportsFailure: false,
        checking: Self.noInvariants)
      let failure = try #require(report.failure)
      try GeneratedExplorationTests.expectCommitted(failure.test, as: "TimerSheetReplay.swift")
      #expect(failure.test?.contains("sessionEnd: .teardown([.close]),") == true)
      await withKnownIssue {
        let reason = await replay(
          initialState: TimerSheet.State(), reducer: { TimerSheet() }, steps: failure.steps,
          sessionEnd: .teardown([.close]), checking: Self.noInvariants)
        #expect(reason == failure.reason)
      } matching: {
        $0.description.contains("The replayed session failed")
      }
      let fixed = await replay(
        initialState: TimerSheet.State(), reducer: { TimerSheet(timerOutlivesChild: false) },
        steps: failure.steps, sessionEnd: .teardown([.close]), checking: Self.noInvariants)
      #expect(fixed == nil)
    }

    static let thermostat = Invariants<Thermostat.State>("Engine.ReplayTests.thermostat") {
      state in
      try invariant(state.target <= Thermostat.limit, "the target stays within the limit")
    }

    @Test func aReactorsTestFailsOnTheBugAndPassesOnceFixed() async throws {
      let report = await explore(
        initialState: Thermostat.State(),
        reactor: Thermostat(),
        actions: .cases(of: Thermostat.Action.self),
        options: ExplorationOptions(seed: 7, sessions: 100),
        test: Self.configuration(
          "Thermostat(offByOne: false)", idiom: .reactor, testName: "thermostatReplay"),
        reportsFailure: false,
        checking: Self.thermostat)
      let failure = try #require(report.failure)
      try GeneratedExplorationTests.expectCommitted(failure.test, as: "ThermostatReplay.swift")
      await withKnownIssue {
        let reason = await replay(
          initialState: Thermostat.State(), reactor: Thermostat(), steps: failure.steps,
          checking: Self.thermostat)
        #expect(reason == failure.reason)
      } matching: {
        $0.description.contains("the target stays within the limit")
      }
      let fixed = await replay(
        initialState: Thermostat.State(), reactor: Thermostat(offByOne: false),
        steps: failure.steps, checking: Self.thermostat)
      #expect(fixed == nil)
    }

    static let pager = Invariants<Pager.State>("Engine.ReplayTests.pager") { state in
      try invariant(
        state.pages == Array(1...max(1, state.pages.count)).prefix(state.pages.count).map { $0 },
        "the pages are 1, 2, 3… in order")
    }

    @Test func aFeedbackSystemsTestFailsOnTheBugAndPassesOnceFixed() async throws {
      let report = await explore(
        initialState: Pager.State(),
        system: Pager(),
        actions: ExplorationTests.pagerActions,
        options: ExplorationOptions(seed: 11, sessions: 100),
        test: Self.configuration(
          "Pager(resetForgetsRequest: false)", idiom: .feedbackSystem, testName: "pagerReplay"),
        reportsFailure: false,
        checking: Self.pager)
      let failure = try #require(report.failure)
      try GeneratedExplorationTests.expectCommitted(failure.test, as: "PagerReplay.swift")
      await withKnownIssue {
        let reason = await replay(
          initialState: Pager.State(), system: Pager(), steps: failure.steps,
          checking: Self.pager)
        #expect(reason == failure.reason)
      } matching: {
        $0.description.contains("the pages are 1, 2, 3… in order")
      }
      let fixed = await replay(
        initialState: Pager.State(), system: Pager(resetForgetsRequest: false),
        steps: failure.steps, checking: Self.pager)
      #expect(fixed == nil)
    }
  }
}
