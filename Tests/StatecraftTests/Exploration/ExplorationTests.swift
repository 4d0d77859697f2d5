import Statecraft
import StatecraftExploration
import Testing

extension Engine {
  @MainActor
  @Suite struct ExplorationTests {
    // MARK: - Planted bugs

    static let pickerActions = ActionGenerator<Picker.Action>.weighted([
      (2, .constant(.add)),
      (1, .constant(.removeLast)),
      (2, .int(in: 0...4).map(Picker.Action.select)),
    ])

    static func pickerInvariants(_ state: Picker.State) throws {
      try invariant(
        state.selection.map { $0 < state.items.count } ?? true,
        "the selection is an item of the list")
    }

    @Test func anOffByOneIsFoundAndShrunkToOneAction() async throws {
      let report = await explore(
        initialState: Picker.State(),
        reducer: { Picker() },
        actions: Self.pickerActions,
        options: ExplorationOptions(seed: 1, sessions: 100),
        reportsFailure: false,
        invariants: Self.pickerInvariants)
      let failure = try #require(report.failure)
      #expect(failure.reason == .invariant("the selection is an item of the list"))
      // NB: shrunk to the smallest session: no item, and the index simplified to 0.
      #expect(failure.steps == [.send(.select(0))])
      #expect(failure.failingStep == 0)
      #expect(failure.originalStepCount >= failure.steps.count)
      let test = try #require(failure.test)
      #expect(test.contains("await store.send(.select(0)) {"))
      #expect(test.contains("$0.continuousClock = clock"))
      #expect(failure.description.contains("1. send .select(0)"))
    }

    @Test func theCorrectPickerPasses() async {
      let report = await explore(
        initialState: Picker.State(),
        reducer: { Picker(offByOne: false) },
        actions: Self.pickerActions,
        options: ExplorationOptions(seed: 1, sessions: 100),
        invariants: Self.pickerInvariants)
      #expect(report.failure == nil)
      #expect(report.sessions == 100)
    }

    static func refresherInvariants(_ state: Refresher.State) throws {
      try invariant(
        state.inFlight > 0 || state.shown == state.version,
        "with nothing in flight, the latest version is shown")
    }

    @Test func aCancellationThatMissesARaceIsFoundInTheOtherOrder() async throws {
      let report = await explore(
        initialState: Refresher.State(),
        reducer: { Refresher() },
        actions: .constant(.refresh),
        options: ExplorationOptions(seed: 3, sessions: 200),
        reportsFailure: false,
        invariants: Self.refresherInvariants)
      let failure = try #require(report.failure)
      #expect(failure.reason == .invariant("with nothing in flight, the latest version is shown"))
      #expect(failure.actions == [.refresh, .refresh])
      // NB: the responses are due at the same instant: only the other order shows the old one.
      let reordered = failure.steps.contains {
        if case .advanceClock(_, let order) = $0 { order != 0 } else { false }
      }
      #expect(reordered)
    }

    @Test func aRefresherThatCancelsInFlightPasses() async {
      let report = await explore(
        initialState: Refresher.State(),
        reducer: { Refresher(cancelsInFlight: true) },
        actions: .constant(.refresh),
        options: ExplorationOptions(seed: 3, sessions: 200),
        invariants: Self.refresherInvariants)
      #expect(report.failure == nil)
    }

    static let timerSheetActions = ActionGenerator<TimerSheet.Action>.weighted([
      (2, .constant(.open)),
      (1, .constant(.close)),
    ])

    @Test func aChildEffectThatOutlivesItsChildIsFound() async throws {
      let report = await explore(
        initialState: TimerSheet.State(),
        reducer: { TimerSheet() },
        actions: Self.timerSheetActions,
        options: ExplorationOptions(seed: 5, sessions: 100),
        sessionEnd: .teardown([.close]),
        reportsFailure: false,
        invariants: { _ in })
      let failure = try #require(report.failure)
      #expect(failure.actions.count <= 3)
      #expect(failure.actions.contains(.open))
      switch failure.reason {
      case .runtimeIssue, .effectsStillRunning: break
      default: Issue.record("Unexpected reason: \(failure.reason)")
      }
    }

    @Test func aChildThatOwnsItsTimerPasses() async {
      let report = await explore(
        initialState: TimerSheet.State(),
        reducer: { TimerSheet(timerOutlivesChild: false) },
        actions: Self.timerSheetActions,
        options: ExplorationOptions(seed: 5, sessions: 100),
        sessionEnd: .teardown([.close]),
        invariants: { _ in })
      #expect(report.failure == nil)
    }

    // MARK: - The other idioms

    @Test func aReactorIsExplored() async throws {
      let report = await explore(
        initialState: Thermostat.State(),
        reactor: Thermostat(),
        actions: .cases(of: Thermostat.Action.self),
        options: ExplorationOptions(seed: 7, sessions: 100),
        reportsFailure: false
      ) { state in
        try invariant(state.target <= Thermostat.limit, "the target stays within the limit")
      }
      let failure = try #require(report.failure)
      #expect(failure.actions == [.up, .up])
      #expect(
        failure.test?.contains(
          "TestStore(initialState: Thermostat.State(target: 0), reactor: Thermostat())") == true)

      let fixed = await explore(
        initialState: Thermostat.State(),
        reactor: Thermostat(offByOne: false),
        actions: .cases(of: Thermostat.Action.self),
        options: ExplorationOptions(seed: 7, sessions: 100)
      ) { state in
        try invariant(state.target <= Thermostat.limit, "the target stays within the limit")
      }
      #expect(fixed.failure == nil)
    }

    static let pagerActions = ActionGenerator<Pager.Event>.weighted([
      (3, .constant(.nextPage)),
      (1, .constant(.reset)),
    ])

    static func pagerInvariants(_ state: Pager.State) throws {
      try invariant(
        state.pages == Array(1...max(1, state.pages.count)).prefix(state.pages.count).map { $0 },
        "the pages are 1, 2, 3… in order")
    }

    @Test func aFeedbackSystemIsExplored() async throws {
      let report = await explore(
        initialState: Pager.State(),
        system: Pager(),
        actions: Self.pagerActions,
        options: ExplorationOptions(seed: 11, sessions: 100),
        reportsFailure: false,
        invariants: Self.pagerInvariants)
      let failure = try #require(report.failure)
      #expect(failure.reason == .invariant("the pages are 1, 2, 3… in order"))
      #expect(failure.actions.count <= 3)
      #expect(failure.actions.contains(.reset))

      let fixed = await explore(
        initialState: Pager.State(),
        system: Pager(resetForgetsRequest: false),
        actions: Self.pagerActions,
        options: ExplorationOptions(seed: 11, sessions: 100),
        sessionEnd: .whenIdle { $0.request == nil },
        invariants: Self.pagerInvariants)
      #expect(fixed.failure == nil)
    }

    // MARK: - Determinism

    // MARK: - Shrinking to a locally minimal session

    static let toastActions = ActionGenerator<ToastQueue.Action>.weighted([
      (3, .constant(.notify)),
      (1, .constant(.scrolled)),
    ])

    static func toastInvariants(_ state: ToastQueue.State) throws {
      try invariant(
        state.shown != nil || state.waiting.isEmpty, "a waiting toast is shown when none is")
    }

    @Test func advancesSpreadOverASessionAreMergedIntoOne() async throws {
      let report = await explore(
        initialState: ToastQueue.State(),
        reducer: { ToastQueue() },
        actions: Self.toastActions,
        options: ExplorationOptions(seed: 7, sessions: 100),
        reportsFailure: false,
        invariants: Self.toastInvariants)
      let failure = try #require(report.failure)
      #expect(failure.reason == .invariant("a waiting toast is shown when none is"))
      // NB: two notifications, then the time the first toast shows for, in one advance: no step
      // can go, and no two advances are left to merge.
      #expect(failure.steps.count == 3)
      #expect(Array(failure.steps.prefix(2)) == [.send(.notify), .send(.notify)])
      let advance = try #require(failure.steps.last)
      guard case .advanceClock(let duration, _) = advance else {
        Issue.record("the last step is \(advance), not an advance of the clock")
        return
      }
      #expect(duration >= .seconds(3))
    }

    @Test func theSameBugShrinksToTheSameSizeWhateverTheSeed() async throws {
      for seed: UInt64 in 1...12 {
        let report = await explore(
          initialState: ToastQueue.State(),
          reducer: { ToastQueue() },
          actions: Self.toastActions,
          options: ExplorationOptions(seed: seed, sessions: 100),
          reportsFailure: false,
          invariants: Self.toastInvariants)
        let failure = try #require(report.failure, "seed \(seed)")
        #expect(failure.steps.count == 3, "seed \(seed): \(failure.steps)")
        #expect(failure.actions == [.notify, .notify], "seed \(seed)")
      }
    }

    @Test func advancesTooShortAloneAreMergedWhateverTheSeed() async throws {
      // NB: with one-second advances only, the toast hides three advances after it shows: no
      // session fails with fewer steps than `notify, notify` and one advance of three seconds,
      // which only merging advances reaches.
      for seed: UInt64 in 1...8 {
        let report = await explore(
          initialState: ToastQueue.State(),
          reducer: { ToastQueue() },
          actions: Self.toastActions,
          options: ExplorationOptions(seed: seed, sessions: 100, clockAdvances: [.seconds(1)]),
          reportsFailure: false,
          invariants: Self.toastInvariants)
        let failure = try #require(report.failure, "seed \(seed)")
        #expect(
          failure.steps == [
            .send(.notify), .send(.notify), .advanceClock(by: .seconds(3), order: 0),
          ],
          "seed \(seed)")
      }
    }

    static let uploadSheetActions = ActionGenerator<UploadSheet.Action>.weighted([
      (2, .constant(.open)),
      (1, .constant(.close)),
    ])

    @Test func anEffectThatOutlivesItsSheetShrinksToOpenCloseAndOneAdvance() async throws {
      for seed: UInt64 in 1...8 {
        let report = await explore(
          initialState: UploadSheet.State(),
          reducer: { UploadSheet() },
          actions: Self.uploadSheetActions,
          options: ExplorationOptions(seed: seed, sessions: 100),
          reportsFailure: false,
          invariants: { _ in })
        let failure = try #require(report.failure, "seed \(seed)")
        guard case .runtimeIssue = failure.reason else {
          Issue.record("seed \(seed): \(failure.reason)")
          continue
        }
        #expect(failure.steps.count == 3, "seed \(seed): \(failure.steps)")
        #expect(Array(failure.steps.prefix(2)) == [.send(.open), .send(.close)], "seed \(seed)")
      }
    }

    @Test func aSheetThatOwnsItsUploadPasses() async {
      let report = await explore(
        initialState: UploadSheet.State(),
        reducer: { UploadSheet(uploadOutlivesSheet: false) },
        actions: Self.uploadSheetActions,
        options: ExplorationOptions(seed: 1, sessions: 100),
        invariants: { _ in })
      #expect(report.failure == nil)
    }

    @Test func theCorrectToastQueuePasses() async {
      let report = await explore(
        initialState: ToastQueue.State(),
        reducer: { ToastQueue(showsNext: true) },
        actions: Self.toastActions,
        options: ExplorationOptions(seed: 7, sessions: 100),
        invariants: Self.toastInvariants)
      #expect(report.failure == nil)
    }

    @Test func theSameSeedGivesTheSameReport() async throws {
      func run() async -> ExplorationReport<Refresher.State, Refresher.Action> {
        await explore(
          initialState: Refresher.State(),
          reducer: { Refresher() },
          actions: .constant(.refresh),
          options: ExplorationOptions(seed: 3, sessions: 200),
          reportsFailure: false,
          invariants: Self.refresherInvariants)
      }
      let first = await run()
      let second = await run()
      #expect(first.sessions == second.sessions)
      #expect(first.steps == second.steps)
      let description = try #require(first.failure?.description)
      #expect(description == second.failure?.description)
    }

    @Test func theSeededGeneratorIsFixed() {
      // NB: xoshiro256** seeded by SplitMix64: these numbers are the same on every machine.
      var random = SeededRandom(seed: 42)
      let numbers = (0..<3).map { _ in random.next() }
      var again = SeededRandom(seed: 42)
      #expect(numbers == (0..<3).map { _ in again.next() })
      var bounded = SeededRandom(seed: 42)
      #expect((0..<100).allSatisfy { _ in (0..<6).contains(bounded.next(below: 6)) })
    }

    @Test func aFailureIsReportedAsAnIssueWithTheSeedAndTheTest() async {
      await withKnownIssue {
        await explore(
          initialState: Picker.State(),
          reducer: { Picker() },
          actions: Self.pickerActions,
          options: ExplorationOptions(seed: 1, sessions: 100),
          invariants: Self.pickerInvariants)
      } matching: { issue in
        let text = issue.description
        return text.contains("seed 1") && text.contains("@Test func exploredSession()")
      }
    }
  }
}
