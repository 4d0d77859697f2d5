import Clocks
import Foundation
import Testing

@testable import Statecraft
@testable import StatecraftInspector

extension Engine {
  /// Time travel with a page connected: viewing a step never moves the store or its shared
  /// values; "continue from here" does, only when asked, and can be undone; the timeline keeps
  /// states at checkpoints only, recomputes the others, and keeps a bounded window of steps.
  @MainActor
  @Suite struct InspectorTimeTravelTests {
    func withPage<Result>(
      _ inspector: Inspector<some Any, some Any>,
      _ body: @MainActor (inout WireConnection, [String: Any]) async throws -> Result
    ) async throws -> Result {
      try await withInspectorPage(inspector, body)
    }

    /// An inspector of `store` that makes a checkpoint every 2 steps and keeps at most 4.
    func inspectorKeepingFourCheckpoints(
      of store: Store<Tally.State, Tally.Action>
    ) async throws -> Inspector<Tally.State, Tally.Action> {
      var configuration = InspectorConfiguration()
      configuration.checkpointInterval = 2
      configuration.maximumCheckpoints = 4
      return try await Inspector(store: store, configuration: configuration)
    }

    /// Sends `store` three actions (add 1, add 2, a note) and reads their steps on `page`.
    func sendThreeSteps(
      to store: Store<Tally.State, Tally.Action>, readingThemOn page: inout WireConnection
    ) async throws {
      store.send(.add(1))
      store.send(.add(2))
      store.send(.note("three"))
      _ = try await page.readSteps(count: 3)
    }

    @Test func viewingAPastStepLeavesTheStoreLiveAndActionsApplyToTheLiveState() async throws {
      let store = Store(initialState: Tally.State()) { Tally() }
      let inspector = try await Inspector(store: store)
      try await withPage(inspector) { page, welcome in
        #expect(welcome["protocol"] as? Int == 3)
        try await sendThreeSteps(to: store, readingThemOn: &page)

        try await page.sendText(#"{"type":"jump","step":1}"#)
        let detail = try await page.read(until: "detail").message
        #expect(detail["step"] as? Int == 1)
        #expect(detail["viewing"] as? Bool == true)
        #expect(detail["liveStep"] as? Int == 3)
        #expect((detail["state"] as? [String: Any])?["count"] as? Int == 1)
        #expect((detail["diff"] as? String)?.contains("count\n- 0\n+ 1") == true)
        // The store is where the user left it.
        #expect(store.state == Tally.State(count: 3, notes: ["three"]))

        // An action sent while a page views a past step applies to the live state, and the
        // log goes on with it.
        store.send(.add(10))
        let steps = try await page.readSteps(count: 1)
        #expect(steps.first?["i"] as? Int == 4)
        #expect(store.state == Tally.State(count: 13, notes: ["three"]))

        try await page.sendText(#"{"type":"resume"}"#)
        let live = try await page.read(until: "live").message
        #expect(live["stepCount"] as? Int == 4)
        #expect(store.state == Tally.State(count: 13, notes: ["three"]))
      }
      await inspector.stop()
      #expect(store.state == Tally.State(count: 13, notes: ["three"]))
    }

    /// The issue's reproduction, on a persisted shared value: viewing a past step while the
    /// app goes on never writes that step's value to the file.
    @Test func viewingAPastStepNeverWritesItsSharedValueToTheFile() async throws {
      let clock = TestClock()
      let storage = SharedStorage(files: .inMemory(), defaults: .inMemory(), clock: clock)
      let url = URL(fileURLWithPath: "/notes/lines.json")
      let lines = withSharedStorage(storage) {
        Shared(wrappedValue: [String](), .fileStorage(url))
      }
      let store = Store(initialState: SharedNotes.State(lines: lines)) { SharedNotes() }
      let inspector = try await Inspector(store: store)
      try await withPage(inspector) { page, _ in
        store.send(.add("one"))
        store.send(.add("two"))
        store.send(.add("three"))
        _ = try await page.readSteps(count: 3)

        try await page.sendText(#"{"type":"jump","step":1}"#)
        let detail = try await page.read(until: "detail").message
        #expect((detail["state"] as? [String: Any])?["lines"] as? [String] == ["one"])
        #expect(lines.wrappedValue == ["one", "two", "three"])

        store.send(.add("four"))
        _ = try await page.readSteps(count: 1)
        await clock.advance(by: .seconds(5))
        let contents = try storage.files.contents(of: url)
        let saved = try JSONDecoder().decode([String].self, from: try #require(contents))
        #expect(saved == ["one", "two", "three", "four"])
      }
      await inspector.stop()
      #expect(lines.wrappedValue == ["one", "two", "three", "four"])
    }

    @Test func continueFromAStepSetsTheLaterStepsAsideAndUndoPutsThemBack() async throws {
      let store = Store(initialState: Tally.State()) { Tally() }
      let inspector = try await Inspector(store: store)
      try await withPage(inspector) { page, welcome in
        #expect((welcome["capabilities"] as? [String: Bool])?["continue"] == true)
        try await sendThreeSteps(to: store, readingThemOn: &page)

        try await page.sendText(#"{"type":"continue","step":1}"#)
        let continued = try await page.read(until: "timeline").message
        #expect(continued["stepCount"] as? Int == 1)
        #expect((continued["branch"] as? [String: Any])?["from"] as? Int == 1)
        #expect((continued["branch"] as? [String: Any])?["stepCount"] as? Int == 2)
        #expect((continued["note"] as? String)?.contains("steps 2 to 3 were set aside") == true)
        #expect(store.state == Tally.State(count: 1))
        let kept = try await page.readSteps(count: 1)
        #expect(kept.map { $0["i"] as? Int } == [1])

        // The store goes on from there; the new step takes the next number.
        store.send(.add(5))
        let next = try await page.readSteps(count: 1)
        #expect(next.first?["i"] as? Int == 2)
        #expect(store.state == Tally.State(count: 6))

        try await page.sendText(#"{"type":"undoContinue"}"#)
        let undone = try await page.read(until: "timeline").message
        #expect(undone["stepCount"] as? Int == 3)
        #expect((undone["branch"] as? [String: Any])?["stepCount"] as? Int == 1)
        let restored = try await page.readSteps(count: 3)
        #expect(restored.map { $0["c"] as? String } == ["add", "add", "note"])
        #expect(store.state == Tally.State(count: 3, notes: ["three"]))

        // Undo again is a swap: the step made after the continue comes back.
        try await page.sendText(#"{"type":"undoContinue"}"#)
        _ = try await page.read(until: "timeline")
        #expect(store.state == Tally.State(count: 6))

        try await page.sendText(#"{"type":"continue","step":2}"#)
        let refused = try await page.read(until: "error").message
        #expect((refused["message"] as? String)?.contains("is the live state") == true)
      }
      await inspector.stop()
      #expect(store.state == Tally.State(count: 6))
    }

    /// A state a continue or its undo put the store at is the replay of the timeline's own
    /// steps: an export after them stores no state but the last (it stays linear in the
    /// actions, however many moves the session had), and it replays.
    @Test func anExportAfterContinuesStoresNoStateTheyPutTheStoreAt() async throws {
      let store = Store(initialState: Tally.State()) { Tally() }
      let inspector = try await Inspector(store: store)
      try await withPage(inspector) { page, _ in
        try await sendThreeSteps(to: store, readingThemOn: &page)
        try await page.sendText(#"{"type":"continue","step":1}"#)
        _ = try await page.read(until: "timeline")
        store.send(.add(5))
        _ = try await page.readSteps(count: 1)
        try await page.sendText(#"{"type":"undoContinue"}"#)
        _ = try await page.read(until: "timeline")
        store.send(.add(7))
        _ = try await page.readSteps(count: 1)

        let recording = try RecordingOf<Tally>(jsonData: try await inspector.session.exportData())
        #expect(recording.checkpoints.map(\.step) == [4])
        #expect(recording.actions == [.add(1), .add(2), .note("three"), .add(7)])
        #expect(recording.replay(against: Tally()).isReproduced)
      }
      await inspector.stop()
    }

    /// The checkpoint a continue makes is thinned like any other: a session of many moves
    /// keeps at most `maximumCheckpoints` states in its timeline.
    @Test func continuesKeepTheCheckpointsWithinTheirMaximum() async throws {
      let store = Store(initialState: Tally.State()) { Tally() }
      let inspector = try await inspectorKeepingFourCheckpoints(of: store)
      try await withPage(inspector) { page, _ in
        for round in 1...20 {
          store.send(.add(round))
          store.send(.add(100))
          _ = try await page.readSteps(count: 2)
          let live = try #require(inspector.session.timeline?.lastStep)
          try await page.sendText(#"{"type":"continue","step":\#(live - 1)}"#)
          _ = try await page.read(until: "timeline")
        }
        store.send(.add(1))
        _ = try await page.readSteps(count: 1)
        let checkpoints = try #require(inspector.session.timeline?.checkpoints.count)
        #expect(checkpoints <= 4)
        // The steps are the 20 rounds' first adds and the last: each is recomputed.
        try await page.sendText(#"{"type":"detail","step":10}"#)
        let detail = try await page.read(until: "detail").message
        #expect((detail["state"] as? [String: Any])?["count"] as? Int == (1...10).reduce(0, +))
        #expect(store.state.count == (1...20).reduce(0, +) + 1)

        // Each continue set aside one step (round r's add of 100, after r adds), and the 19
        // before the last are kept as sessions of their own: each keeps only the states its
        // writing needs (its first, and the one its last state is recomputed from), and each
        // replays.
        let sessions = inspector.setAsideSessions()
        #expect(sessions.count == 20)
        #expect(inspector.session.earlierBranches.allSatisfy { $0.checkpoints.count <= 2 })
        for (index, data) in sessions.enumerated() {
          let recording = try RecordingOf<Tally>(jsonData: data)
          #expect(recording.actions.count == index + 2)
          #expect(recording.replay(against: Tally()).isReproduced, "session \(index)")
        }
      }
      await inspector.stop()
    }

    /// "Skip" leaves a step's action out, as in Redux DevTools: every step after it is
    /// recomputed without it (past the checkpoints, which are made again), the store is put at
    /// the result, the step stays in the log marked skipped, an export leaves it out, and
    /// "unskip" puts it back.
    @Test func skipLeavesAStepsActionOutAndUnskipPutsItBack() async throws {
      let store = Store(initialState: Tally.State()) { Tally() }
      var configuration = InspectorConfiguration()
      configuration.checkpointInterval = 4
      configuration.maximumCheckpoints = 100
      let inspector = try await Inspector(store: store, configuration: configuration)
      try await withPage(inspector) { page, welcome in
        #expect((welcome["capabilities"] as? [String: Bool])?["skip"] == true)
        for amount in 1...10 { store.send(.add(amount)) }
        _ = try await page.readSteps(count: 10)
        #expect(store.count == 55)

        try await page.sendText(#"{"type":"skip","step":3}"#)
        let skipped = try await page.read(until: "timeline").message
        #expect((skipped["note"] as? String)?.contains("Skipped step 3 (add)") == true)
        #expect(skipped["stepCount"] as? Int == 10)
        let steps = try await page.readSteps(count: 10)
        #expect(steps.map { $0["k"] as? Bool == true } == (1...10).map { $0 == 3 })
        #expect(store.count == 52)

        // Each step's state is recomputed without step 3's action, before and after the
        // checkpoints at 4 and 8; step 3's own state is the one before it.
        for step in [2, 3, 4, 5, 8, 9, 10] {
          try await page.sendText(#"{"type":"detail","step":\#(step)}"#)
          let detail = try await page.read(until: "detail").message
          let count = (detail["state"] as? [String: Any])?["count"] as? Int
          #expect(count == (1...step).reduce(0, +) - (step >= 3 ? 3 : 0), "step \(step)")
          #expect(detail["skipped"] as? Bool == (step == 3), "step \(step)")
          if step == 3 { #expect(detail["changeCount"] as? Int == 0) }
        }

        // The store goes on from there, and an export is the actions that made the session.
        store.send(.add(100))
        _ = try await page.readSteps(count: 1)
        #expect(store.count == 152)
        let recording = try Recording<Tally.State, Tally.Action>(
          jsonData: try await inspector.session.exportData())
        #expect(recording.actions == [1, 2, 4, 5, 6, 7, 8, 9, 10, 100].map(Tally.Action.add))
        #expect(recording.storedState(at: recording.stepCount)?.count == 152)

        try await page.sendText(#"{"type":"skip","step":3}"#)
        let again = try await page.read(until: "error").message
        #expect((again["message"] as? String)?.contains("already skipped") == true)

        try await page.sendText(#"{"type":"unskip","step":3}"#)
        let back = try await page.read(until: "timeline").message
        #expect((back["note"] as? String)?.contains("Step 3 (add) is back") == true)
        #expect(store.count == 155)
      }
      await inspector.stop()
    }

    /// A skip is refused where the steps after it don't follow from the ones before: at or
    /// before a state made outside the reducer (a shared value written between two steps), and
    /// at the timeline's start. A step after that state is skipped.
    @Test func skipIsRefusedBeforeAStateMadeOutsideTheReducer() async throws {
      let lines = Shared(value: ["a"])
      let store = Store(initialState: SharedNotes.State(lines: lines)) { SharedNotes() }
      let inspector = try await Inspector(store: store)
      try await withPage(inspector) { page, _ in
        store.send(.add("b"))
        lines.withLock { $0.append("outside") }
        store.send(.add("c"))
        store.send(.add("d"))
        _ = try await page.readSteps(count: 3)

        for step in [1, 2] {
          try await page.sendText(#"{"type":"skip","step":\#(step)}"#)
          let refused = try await page.read(until: "error").message
          #expect(
            (refused["message"] as? String)?.contains("changed outside the reducer") == true,
            "step \(step)")
        }
        try await page.sendText(#"{"type":"skip","step":0}"#)
        let start = try await page.read(until: "error").message
        #expect((start["message"] as? String)?.contains("no action to skip") == true)
        #expect(lines.wrappedValue == ["a", "b", "outside", "c", "d"])

        try await page.sendText(#"{"type":"skip","step":3}"#)
        _ = try await page.read(until: "timeline")
        #expect(lines.wrappedValue == ["a", "b", "outside", "c"])
      }
      await inspector.stop()
    }

    /// A skip at or before the step that steps set aside go back to is refused; the state a
    /// page put the store at (here, by an undo) is recomputed through like any other.
    @Test func skipIsRefusedBeforeStepsSetAsideAndRecomputesThroughAnUndo() async throws {
      let store = Store(initialState: Tally.State()) { Tally() }
      let inspector = try await Inspector(store: store)
      try await withPage(inspector) { page, _ in
        try await sendThreeSteps(to: store, readingThemOn: &page)
        try await page.sendText(#"{"type":"continue","step":2}"#)
        _ = try await page.read(until: "timeline")
        store.send(.add(5))
        _ = try await page.readSteps(count: 3)
        #expect(store.count == 8)
        try await page.sendText(#"{"type":"skip","step":1}"#)
        let refused = try await page.read(until: "error").message
        #expect((refused["message"] as? String)?.contains("set aside") == true)

        try await page.sendText(#"{"type":"undoContinue"}"#)
        _ = try await page.read(until: "timeline")
        #expect(store.state == Tally.State(count: 3, notes: ["three"]))
        // NB: the undo set aside the step made since (after step 2), and put the store at
        // step 3's state, which the steps before lead to: step 3 is skipped through it.
        try await page.sendText(#"{"type":"skip","step":3}"#)
        _ = try await page.read(until: "timeline")
        #expect(store.state == Tally.State(count: 3, notes: []))
      }
      await inspector.stop()
    }

    /// "Commit" starts the timeline at the live state, as in Redux DevTools: the steps before
    /// it go, the store's state doesn't change, and "continue from here" at the new first step
    /// (the page's "Revert") goes back to it. Refused while steps are set aside.
    @Test func commitStartsTheTimelineAtTheLiveStateAndRevertGoesBackToIt() async throws {
      let store = Store(initialState: Tally.State()) { Tally() }
      let inspector = try await Inspector(store: store)
      try await withPage(inspector) { page, _ in
        try await sendThreeSteps(to: store, readingThemOn: &page)

        try await page.sendText(#"{"type":"commit"}"#)
        let committed = try await page.read(until: "timeline").message
        #expect(committed["firstStep"] as? Int == 3)
        #expect(committed["stepCount"] as? Int == 3)
        let note = committed["note"] as? String
        #expect(note?.contains("the 3 steps before it were dropped") == true)
        #expect(store.state == Tally.State(count: 3, notes: ["three"]))
        #expect(inspector.session.timeline?.firstStep == 3)

        try await page.sendText(#"{"type":"detail","step":1}"#)
        let dropped = try await page.read(until: "error").message
        #expect((dropped["message"] as? String)?.contains("There is no step 1") == true)

        // The store goes on; a revert (continue from the first step) puts it back.
        store.send(.add(10))
        let next = try await page.readSteps(count: 1)
        #expect(next.first?["i"] as? Int == 4)
        try await page.sendText(#"{"type":"continue","step":3}"#)
        _ = try await page.read(until: "timeline")
        #expect(store.state == Tally.State(count: 3, notes: ["three"]))

        // With a step set aside by that revert, commit is refused: it would drop it.
        try await page.sendText(#"{"type":"commit"}"#)
        let refused = try await page.read(until: "error").message
        #expect(refused["context"] as? String == "commit")
        #expect((refused["message"] as? String)?.contains("Steps are set aside") == true)
        #expect(inspector.session.timeline?.firstStep == 3)
      }
      await inspector.stop()
    }

    /// Steps set aside are never lost: they stay when the last page leaves (a reload), a page
    /// that comes back can still undo, and the steps set aside then are there to keep at quit.
    @Test func stepsSetAsideSurviveAReloadAndAreThereToKeepAtQuit() async throws {
      let store = Store(initialState: Tally.State()) { Tally() }
      let inspector = try await Inspector(store: store)
      try await withPage(inspector) { page, _ in
        try await sendThreeSteps(to: store, readingThemOn: &page)
        try await page.sendText(#"{"type":"continue","step":1}"#)
        _ = try await page.read(until: "timeline")
      }
      await inspector.session.waitForPageCount(0)
      #expect(inspector.session.isRecording)
      // NB: made while no page is open (the page reloads): still recorded.
      store.send(.add(5))
      try await withPage(inspector) { page, _ in
        let timeline = try await page.read(until: "timeline").message
        #expect(timeline["stepCount"] as? Int == 2)
        #expect((timeline["branch"] as? [String: Any])?["from"] as? Int == 1)
        #expect((timeline["branch"] as? [String: Any])?["stepCount"] as? Int == 2)
        try await page.sendText(#"{"type":"undoContinue"}"#)
        _ = try await page.read(until: "timeline")
        #expect(store.state == Tally.State(count: 3, notes: ["three"]))
      }
      // The step made since the continue is set aside now: the app keeps it at quit.
      let data = try #require(inspector.setAsideSession())
      let recording = try Recording<Tally.State, Tally.Action>(jsonData: data)
      #expect(recording.actions == [.add(1), .add(5)])
      #expect(recording.replay(against: Tally()).isReproduced)
      await inspector.stop()
      #expect(inspector.setAsideSession() == nil)
      #expect(store.state == Tally.State(count: 3, notes: ["three"]))
    }

    /// A continue made while steps are set aside keeps those too, as the session its undo
    /// would have made: a second continue used to replace them. Each is there at quit, the
    /// earliest first, and replays; the timeline stays for them when the last page leaves.
    @Test func aSecondContinueKeepsTheStepsTheFirstSetAside() async throws {
      let store = Store(initialState: Tally.State()) { Tally() }
      let inspector = try await Inspector(store: store)
      try await withPage(inspector) { page, _ in
        try await sendThreeSteps(to: store, readingThemOn: &page)
        // Steps 2 and 3 are set aside; then two more are made.
        try await page.sendText(#"{"type":"continue","step":1}"#)
        _ = try await page.read(until: "timeline")
        store.send(.add(10))
        store.send(.add(20))
        _ = try await page.readSteps(count: 2)
        // Before step 1: the first continue's step is cut away too.
        try await page.sendText(#"{"type":"continue","step":0}"#)
        let timeline = try await page.read(until: "timeline").message
        #expect(timeline["kept"] as? Int == 1)
        #expect((timeline["branch"] as? [String: Any])?["stepCount"] as? Int == 3)
        #expect((timeline["note"] as? String)?.contains("kept as a session of their own") == true)
        // Undo swaps with the last continue's steps, and the earlier session stays kept.
        try await page.sendText(#"{"type":"undoContinue"}"#)
        _ = try await page.read(until: "timeline")
        #expect(store.state == Tally.State(count: 31))
      }
      await inspector.session.waitForPageCount(0)
      #expect(inspector.session.isRecording)
      let sessions = inspector.setAsideSessions()
      try #require(sessions.count == 1)
      let earlier = try Recording<Tally.State, Tally.Action>(jsonData: sessions[0])
      #expect(earlier.actions == [.add(1), .add(2), .note("three")])
      #expect(earlier.replay(against: Tally()).isReproduced)
      #expect(inspector.setAsideSession() == sessions.last)

      // No step is set aside after that undo (none were made since the second continue), so a
      // third continue keeps nothing more.
      try await withPage(inspector) { page, _ in
        _ = try await page.read(until: "timeline")
        try await page.sendText(#"{"type":"continue","step":1}"#)
        let timeline = try await page.read(until: "timeline").message
        #expect(timeline["kept"] as? Int == 1)
      }
      let atQuit = inspector.setAsideSessions()
      try #require(atQuit.count == 2)
      let last = try Recording<Tally.State, Tally.Action>(jsonData: atQuit[1])
      #expect(last.actions == [.add(1), .add(10), .add(20)])
      #expect(last.replay(against: Tally()).isReproduced)
      await inspector.stop()
      #expect(inspector.setAsideSessions().isEmpty)
    }

    @Test func theTimelineKeepsStatesAtCheckpointsAndRecomputesTheOthers() async throws {
      let store = Store(initialState: Tally.State()) { Tally() }
      var configuration = InspectorConfiguration()
      configuration.checkpointInterval = 8
      configuration.maximumCheckpoints = 100
      let inspector = try await Inspector(store: store, configuration: configuration)
      try await withPage(inspector) { page, _ in
        for amount in 1...100 { store.send(.add(amount)) }
        _ = try await page.readSteps(count: 100)
        // One state at the start and one every 8 steps: not one a step.
        #expect(inspector.session.keptStateCount == 1 + 100 / 8)

        try await page.sendText(#"{"type":"detail","step":43}"#)
        let detail = try await page.read(until: "detail").message
        #expect(detail["recomputed"] as? Bool == true)
        #expect((detail["state"] as? [String: Any])?["count"] as? Int == (1...43).reduce(0, +))
        let changes = try #require(detail["changes"] as? [[String: Any]])
        #expect(changes.count == 1)
        #expect(changes.first?["path"] as? [String] == ["count"])
        #expect(changes.first?["old"] as? Int == (1...42).reduce(0, +))
        #expect(changes.first?["new"] as? Int == (1...43).reduce(0, +))
        #expect((detail["diff"] as? String)?.contains("count\n- 903\n+ 946") == true)

        try await page.sendText(#"{"type":"detail","step":40}"#)
        let checkpoint = try await page.read(until: "detail").message
        #expect(checkpoint["recomputed"] as? Bool == false)
      }
      await inspector.stop()
    }

    /// Past the maximum number of checkpoints, every other one goes and the interval doubles:
    /// the states kept stay few however many steps come, and every step is still recomputed
    /// exactly.
    @Test func checkpointsAreThinnedPastTheirMaximum() async throws {
      let store = Store(initialState: Tally.State()) { Tally() }
      let inspector = try await inspectorKeepingFourCheckpoints(of: store)
      try await withPage(inspector) { page, _ in
        for amount in 1...200 {
          store.send(.add(amount))
          #expect(inspector.session.keptStateCount <= 4)
        }
        _ = try await page.readSteps(count: 200)
        for step in [1, 77, 150, 199, 200] {
          try await page.sendText(#"{"type":"detail","step":\#(step)}"#)
          let detail = try await page.read(until: "detail").message
          #expect(
            (detail["state"] as? [String: Any])?["count"] as? Int == (0...step).reduce(0, +),
            "step \(step)")
        }
      }
      await inspector.stop()
    }

    /// A recomputed step runs the reducer again: its writes to a shared value go to the
    /// replay's copy, and the live value, its observers and its file see nothing.
    @Test func recomputingAStepWritesNoLiveSharedValue() async throws {
      let lines = Shared(value: ["a"])
      let store = Store(initialState: SharedNotes.State(lines: lines)) { SharedNotes() }
      var configuration = InspectorConfiguration()
      configuration.checkpointInterval = 100
      let inspector = try await Inspector(store: store, configuration: configuration)
      try await withPage(inspector) { page, _ in
        store.send(.add("b"))
        store.send(.add("c"))
        store.send(.removeFirst)
        // NB: the last three steps' states are the store's own: steps 1 to 3 are recomputed.
        store.send(.add("d"))
        store.send(.add("e"))
        store.send(.add("f"))
        _ = try await page.readSteps(count: 6)
        let changes = lines.reference!.changeCount

        for step in 1...3 {
          try await page.sendText(#"{"type":"detail","step":\#(step)}"#)
        }
        var details: [(message: [String: Any], before: [[String: Any]])] = []
        for _ in 1...3 { details.append(try await page.read(until: "detail")) }
        #expect(
          details.map { ($0.message["state"] as? [String: Any])?["lines"] as? [String] } == [
            ["a", "b"], ["a", "b", "c"], ["b", "c"],
          ])
        #expect(details.allSatisfy { $0.message["recomputed"] as? Bool == true })
        #expect(lines.wrappedValue == ["b", "c", "d", "e", "f"])
        #expect(lines.reference!.changeCount == changes)

        // The export recomputes the last step the same way: it stores no other state.
        let export = try await WireClient.request(
          port: inspector.port, target: "/export?token=\(inspector.token)")
        let recording = try RecordingOf<SharedNotes>(jsonData: Data(export.body.utf8))
        #expect(
          recording.checkpoints.map(\.state.lines.wrappedValue) == [["b", "c", "d", "e", "f"]])
        #expect(lines.reference!.changeCount == changes)
      }
      await inspector.stop()
    }

    /// A shared value written outside the reducer (an effect, another store) between two
    /// steps can't be recomputed from the actions: the step after it is a checkpoint.
    @Test func aSharedValueChangedBetweenStepsMakesTheNextStepACheckpoint() async throws {
      let (detail, storedSteps) = try await secondStep { lines in
        lines.withLock { $0.append("outside") }
      }
      #expect(detail["recomputed"] as? Bool == false)
      #expect(
        (detail["state"] as? [String: Any])?["lines"] as? [String] == ["a", "b", "outside", "c"])
      // The checkpoint, and the last step.
      #expect(storedSteps == [2, 5])
    }

    /// A shared value written with the value it has (a file's echo of the app's own save, an
    /// effect that sets what is there) changed nothing: the next step is recomputed, and the
    /// export stores no state for it but the last.
    @Test func aSharedValueWrittenUnchangedBetweenStepsIsNoCheckpoint() async throws {
      let (detail, storedSteps) = try await secondStep { lines in
        lines.withLock { $0 = ["a", "b"] }
        lines.reference!.receive(["a", "b"])
      }
      #expect(detail["recomputed"] as? Bool == true)
      #expect((detail["state"] as? [String: Any])?["lines"] as? [String] == ["a", "b", "c"])
      #expect(storedSteps == [5])
    }

    /// The detail of the second of two adds to a shared list, with `write` run on the list
    /// between them, and the steps whose states the session's export stores.
    private func secondStep(
      writingBetween write: (Shared<[String]>) -> Void
    ) async throws -> (detail: [String: Any], storedSteps: [Int]) {
      let lines = Shared(value: ["a"])
      let store = Store(initialState: SharedNotes.State(lines: lines)) { SharedNotes() }
      var configuration = InspectorConfiguration()
      configuration.checkpointInterval = 100
      let inspector = try await Inspector(store: store, configuration: configuration)
      let result = try await withPage(inspector) { page, _ in
        store.send(.add("b"))
        write(lines)
        store.send(.add("c"))
        // NB: three steps more: step 2 is no longer one of the last three, the store's own
        // states.
        store.send(.add("d"))
        store.send(.add("e"))
        store.send(.add("f"))
        _ = try await page.readSteps(count: 5)
        try await page.sendText(#"{"type":"detail","step":2}"#)
        let detail = try await page.read(until: "detail").message
        let recording = try RecordingOf<SharedNotes>(
          jsonData: try await inspector.session.exportData())
        return (detail, recording.checkpoints.map(\.step))
      }
      await inspector.stop()
      return result
    }

    @Test func theOldestStepsAreDroppedPastTheMaximum() async throws {
      let store = Store(initialState: Tally.State()) { Tally() }
      var configuration = InspectorConfiguration()
      configuration.maximumSteps = 20
      configuration.checkpointInterval = 4
      configuration.maximumCheckpoints = 100
      let inspector = try await Inspector(store: store, configuration: configuration)
      try await withPage(inspector) { page, _ in
        for _ in 1...50 { store.send(.add(1)) }
        let (trimmed, _) = try await page.read(until: "trimmed")
        let first = try #require(trimmed["firstStep"] as? Int)
        // NB: the window is hard: exactly 20 steps are shown, though the memory lets them go
        // a checkpoint at a time.
        #expect(first == 30)
        #expect(inspector.session.keptStateCount <= 20 / 4 + 1)
        try await page.sendText(#"{"type":"detail","step":29}"#)
        let outside = try await page.read(until: "error").message
        #expect((outside["message"] as? String)?.contains("There is no step 29") == true)

        try await page.sendText(#"{"type":"detail","step":\#(first)}"#)
        let kept = try await page.read(until: "detail").message
        #expect((kept["state"] as? [String: Any])?["count"] as? Int == first)

        try await page.sendText(#"{"type":"detail","step":3}"#)
        let dropped = try await page.read(until: "error").message
        #expect((dropped["message"] as? String)?.contains("were dropped") == true)
        #expect((dropped["message"] as? String)?.contains("at most 20 steps") == true)
      }
      await inspector.stop()
    }

    @Test func theTimelineIsDroppedWhenTheLastPageLeaves() async throws {
      let store = Store(initialState: Tally.State()) { Tally() }
      let inspector = try await Inspector(store: store)
      try await withPage(inspector) { page, _ in
        for amount in 1...10 { store.send(.add(amount)) }
        _ = try await page.readSteps(count: 10)
        #expect(inspector.session.keptStateCount >= 1)
        try await page.sendFrame(opcode: 0x8, [0x03, 0xE8])
        _ = try await page.readToEnd()
      }
      await inspector.session.waitForPageCount(0)
      #expect(inspector.session.keptStateCount == 0)
      #expect(inspector.session.timeline == nil)
      await inspector.stop()
    }
  }
}
