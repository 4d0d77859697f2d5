import ConcurrencyExtras
import Foundation
import NIOEmbedded
import NIOWebSocket
import Synchronization
import Testing

@testable import Statecraft
@testable import StatecraftInspector

extension Engine {
  /// The Inspector at the size of a real session: a page is sent what it shows, under a bound,
  /// and browses the rest on demand; an export holds the actions and only the states it can't
  /// recompute; viewing, exporting and importing leave the main actor to the app between
  /// slices.
  ///
  /// NB: a page of a test's own is a `NIOAsyncTestingChannel`, which any thread may use: a test
  /// here turns the main serial executor off while it runs (`withEncodingHeldUp`), and the
  /// main actor's jobs of the tests that run beside it then run on whichever thread drains the
  /// main queue. An `EmbeddedChannel` must be used from the thread that made it (NIO warned
  /// 60 times a run, and says it will crash).
  @MainActor
  @Suite struct InspectorScaleTests {
    @Test func aLargeStatesDetailIsItsChangedPathsUnderTheBoundAndItsListIsBrowsable()
      async throws
    {
      let store = Store(initialState: Catalog.State()) { Catalog() }
      let inspector = try await Inspector(store: store)
      try await withInspectorPage(inspector) { page, _ in
        store.send(.fill(10_000))
        store.send(.rename(id: 9_999, title: "Renamed"))
        _ = try await page.readSteps(count: 2)
        // NB: the whole state is larger than any message may be.
        let whole = try JSONEncoder().encode(store.state)
        #expect(whole.count > InspectedTree.maximumMessageSize)

        try await page.sendText(#"{"type":"detail","step":2}"#)
        let text = try await page.readText(until: "detail")
        #expect(text.utf8.count <= InspectedTree.maximumMessageSize)
        let detail = try #require(
          JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let changes = try #require(detail["changes"] as? [[String: Any]])
        #expect(changes.count == 1)
        #expect(detail["changeCount"] as? Int == 1)
        #expect(changes.first?["path"] as? [AnyHashable] == ["items", 9_999, "title"])
        #expect(changes.first?["new"] as? String == "Renamed")
        #expect((detail["diff"] as? String)?.contains("items[9999].title\n- ") == true)
        #expect((detail["diff"] as? String)?.contains(#"+ "Renamed""#) == true)
        let cuts = try #require(detail["cuts"] as? [[String: Any]])
        let items = try #require(cuts.first { $0["path"] as? [String] == ["items"] })
        #expect(items["count"] as? Int == 10_000)
        #expect((items["shown"] as? Int ?? .max) < 10_000)

        // The rest of the list comes a page at a time.
        try await page.sendText(
          #"{"type":"children","step":2,"path":["items"],"offset":9990}"#)
        let childrenText = try await page.readText(until: "children")
        #expect(childrenText.utf8.count <= InspectedTree.maximumMessageSize)
        let children = try #require(
          JSONSerialization.jsonObject(with: Data(childrenText.utf8)) as? [String: Any])
        #expect(children["count"] as? Int == 10_000)
        let entries = try #require(children["entries"] as? [[Any]])
        #expect(entries.count == 10)
        #expect(entries.last?.first as? Int == 9_999)
        #expect((entries.last?.last as? [String: Any])?["title"] as? String == "Renamed")
      }
      await inspector.stop()
    }

    @Test func viewingTheNextStepEncodesWhatChangedNotTheWholeHistory() async throws {
      let store = Store(initialState: Journal.State()) { Journal() }
      let inspector = try await Inspector(store: store)
      try await withInspectorPage(inspector) { page, _ in
        for id in 1...150 { store.send(.add(id)) }
        _ = try await page.readSteps(count: 150)
        // NB: the state holds 150 entries, and 100 earlier lists of them: about 10,000 in all.
        #expect(store.history.map(\.count).reduce(store.entries.count, +) > 10_000)
        try await page.sendText(#"{"type":"detail","step":149}"#)
        _ = try await page.readText(until: "detail")

        let before = Journal.Entry.encodeCount.withLock { $0 }
        try await page.sendText(#"{"type":"detail","step":150}"#)
        let text = try await page.readText(until: "detail")
        let encoded = Journal.Entry.encodeCount.withLock { $0 } - before
        // The one entry added is encoded; the entries and lists the step before had are not.
        #expect(encoded <= 2)

        let detail = try #require(
          JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let changes = try #require(detail["changes"] as? [[String: Any]])
        #expect(detail["changeCount"] as? Int == 3)
        let described = changes.map { "\($0["kind"] ?? "") \($0["path"] ?? "")" }
        #expect(described.contains { $0.hasPrefix("added") && $0.contains("149") })
        #expect(described.filter { $0.contains("history") }.count == 2)
        let added = try #require(
          changes.first { ($0["path"] as? [AnyHashable])?.first as? String == "entries" })
        #expect((added["new"] as? [String: Any])?["note"] as? String == "Entry 150 of the journal")
      }
      await inspector.stop()
    }

    /// A list that gained an entry is read from the tree of the list it grew from: the step
    /// reads the entry added, not every entry of the list, found one by one.
    @Test func viewingTheNextStepReadsTheEntryAddedNotEachEntryOfTheList() async throws {
      let (read, text) = try await valuesReadToView(step: 150, afterViewing: 149)
      // NB: the state, its two lists, the entry added and the list the history gained; the
      // history, at its limit, dropped its first list, and each of its 100 lists is found by
      // its bits, a read each (a list of lists is not a known list: it would keep every list
      // under it). Each entry of the lists that changed found one by one: 250.
      #expect(read <= 110)
      #expect(text.contains("Entry 150 of the journal"))
    }

    /// A step far from the live end is recomputed from a checkpoint, whose lists the encoder has
    /// not met: each list of its history is read from the list before it, plus what it gained.
    @Test func viewingAFarStepReadsEachHistoryListFromTheOneBeforeIt() async throws {
      let (read, text) = try await valuesReadToView(step: 120)
      // NB: steps 119 and 120 hold 100 lists of 19 to 119 entries: 13,800 entries, found one
      // by one.
      #expect(read <= 1_000)
      #expect(text.contains("Entry 120 of the journal"))
    }

    /// The values the Inspector's encoder reads to view `step` of a 150-entry journal, after
    /// viewing `earlier` (if any); and the detail's text.
    private func valuesReadToView(step: Int, afterViewing earlier: Int? = nil) async throws
      -> (read: Int, text: String)
    {
      let store = Store(initialState: Journal.State()) { Journal() }
      let inspector = try await Inspector(store: store)
      var result = (read: 0, text: "")
      try await withInspectorPage(inspector) { page, _ in
        for id in 1...150 { store.send(.add(id)) }
        _ = try await page.readSteps(count: 150)
        if let earlier {
          try await page.sendText(#"{"type":"detail","step":\#(earlier)}"#)
          _ = try await page.readText(until: "detail")
        }
        let before = inspector.session.treeEncoder.valuesRead
        try await page.sendText(#"{"type":"detail","step":\#(step)}"#)
        result.text = try await page.readText(until: "detail")
        result.read = inspector.session.treeEncoder.valuesRead - before
      }
      await inspector.stop()
      return result
    }

    /// A page that follows the live end views the states the store had, not states recomputed
    /// from a checkpoint: they share the store's storage with the states viewed before, so a
    /// view costs the steps made since the last one.
    @Test func followingTheLiveEndEncodesTheStepsSinceTheLastView() async throws {
      let store = Store(initialState: Journal.State()) { Journal() }
      let inspector = try await Inspector(store: store)
      try await withInspectorPage(inspector) { page, _ in
        for id in 1...150 { store.send(.add(id)) }
        _ = try await page.readSteps(count: 150)
        try await page.sendText(#"{"type":"detail","step":150}"#)
        _ = try await page.readText(until: "detail")

        // NB: step 192 is a checkpoint (one every 64 steps): the store's own state there,
        // nearer than any state recomputed for the last view.
        for id in 151...200 { store.send(.add(id)) }
        _ = try await page.readSteps(count: 50)
        let before = Journal.Entry.encodeCount.withLock { $0 }
        try await page.sendText(#"{"type":"detail","step":200}"#)
        let text = try await page.readText(until: "detail")
        let encoded = Journal.Entry.encodeCount.withLock { $0 } - before
        // The 50 entries added since are encoded; the 150 before them, in each of the lists
        // made since, are not.
        #expect(encoded <= 50)
        #expect(text.contains("Entry 200 of the journal"))
      }
      await inspector.stop()
    }

    /// Once the app has gone on from the live end a detail showed, the encoder remembers none
    /// of the values it met: each held the store's state it came from, which shares nothing
    /// with the app's by then. It keeps the lists it knows, which make the next detail cost
    /// what changed (the test above). A recomputed state's values stay, as the state does, for
    /// the view of the step after it.
    @Test func aDetailOfTheLiveEndLeavesNoStateInTheEncoder() async throws {
      let store = Store(initialState: Journal.State()) { Journal() }
      let inspector = try await Inspector(store: store)
      try await withInspectorPage(inspector) { page, _ in
        for id in 1...150 { store.send(.add(id)) }
        _ = try await page.readSteps(count: 150)
        try await page.sendText(#"{"type":"detail","step":75}"#)
        _ = try await page.readText(until: "detail")
        _ = await inspector.session.encoding?.value
        #expect(inspector.session.treeEncoder.rememberedValueCount > 0)
        try await page.sendText(#"{"type":"follow"}"#)
        _ = try await page.readText(until: "detail")
        _ = await inspector.session.encoding?.value
        // NB: step 150 is still the store's: what the encoder met is shared with the store.
        #expect(inspector.session.treeEncoder.rememberedValueCount > 0)
        for id in 151...153 { store.send(.add(id)) }
        _ = try await page.readSteps(count: 3)
        _ = await inspector.session.encoding?.value
        #expect(inspector.session.treeEncoder.rememberedValueCount == 0)
      }
      await inspector.stop()
    }

    /// A page that follows asks for the live step, whichever it is when its request is read:
    /// the app went on since the page drew its last step, and that step's state would be
    /// recomputed from a checkpoint, where the live step's is the store's own.
    @Test func aFollowingPageIsAnsweredWithTheLiveStepNeverARecomputedOne() async throws {
      try await withFiftyStepsOnAPage { store, inspector, page in
        let replays = Replays()
        inspector.session.slicing = SliceBudget(
          maximumSteps: 1, pause: { [replays] in replays.count += 1 })
        for _ in 1...10 { store.send(.add(1)) }
        try await page.sendText(#"{"type":"follow"}"#)
        let live = try await page.read(until: "detail").message
        #expect(live["step"] as? Int == 60)
        #expect((live["state"] as? [String: Any])?["count"] as? Int == 60)
        #expect(live["viewing"] as? Bool == false)
        #expect(live["recomputed"] as? Bool == false)
        #expect(replays.count == 0)

        // The step the page drew is no longer at hand: asked for by its number, it is replayed.
        try await page.sendText(#"{"type":"detail","step":50}"#)
        let drawn = try await page.read(until: "detail").message
        #expect(drawn["recomputed"] as? Bool == true)
        #expect(replays.count > 0)
      }
    }

    /// A view keeps the last two states it recomputed, no more (a far state shares nothing with
    /// the others: each one kept is a whole state's memory), and the step after the one viewed
    /// (play, →) is recomputed from it: one action, no slice.
    @Test func viewsKeepTwoRecomputedStatesAndTheNextStepReplaysOneAction() async throws {
      try await withFiftyStepsOnAPage { store, inspector, page in
        let replays = Replays()
        inspector.session.slicing = SliceBudget(
          maximumSteps: 1, pause: { [replays] in replays.count += 1 })
        for step in [10, 20, 30, 40] {
          try await page.sendText(#"{"type":"jump","step":\#(step)}"#)
          _ = try await page.read(until: "detail")
        }
        #expect(inspector.session.recomputed.map(\.step) == [39, 40])
        replays.count = 0
        try await page.sendText(#"{"type":"jump","step":41}"#)
        let next = try await page.read(until: "detail").message
        #expect((next["state"] as? [String: Any])?["count"] as? Int == 41)
        #expect(replays.count == 0)
        #expect(inspector.session.recomputed.map(\.step) == [40, 41])
      }
    }

    /// The live end a page left is kept: coming back to it, or to the step before it, replays
    /// nothing, however many steps the app took while the page looked at older ones. (Those
    /// steps pushed it out of the store's last states, and a view of it replayed from the
    /// checkpoint before it: at 20,000 todos, 3,616 adds, 2.9 s.)
    @Test func theLiveEndAPageLeftIsViewedAgainWithoutAReplay() async throws {
      try await withFiftyStepsOnAPage { store, inspector, page in
        let replays = Replays()
        inspector.session.slicing = SliceBudget(
          maximumSteps: 1, pause: { [replays] in replays.count += 1 })
        try await page.sendText(#"{"type":"jump","step":10}"#)
        _ = try await page.read(until: "detail")
        for _ in 1...5 { store.send(.add(1)) }
        _ = try await page.readSteps(count: 5)
        try await page.sendText(#"{"type":"jump","step":20}"#)
        _ = try await page.read(until: "detail")
        replays.count = 0
        try await page.sendText(#"{"type":"jump","step":50}"#)
        let left = try await page.read(until: "detail").message
        #expect((left["state"] as? [String: Any])?["count"] as? Int == 50)
        #expect(left["recomputed"] as? Bool == false)
        // NB: the step before it too (the app often took a step after the last one the page
        // saw), whose detail diffs it with step 48.
        try await page.sendText(#"{"type":"jump","step":49}"#)
        let before = try await page.read(until: "detail").message
        #expect((before["state"] as? [String: Any])?["count"] as? Int == 49)
        #expect(before["recomputed"] as? Bool == false)
        #expect(replays.count == 0)
        // NB: back at the live end, the page follows it: the state it left goes.
        try await page.sendText(#"{"type":"resume"}"#)
        _ = try await page.read(until: "live")
        #expect(inspector.session.knownStates.map(\.step).contains(50) == false)
      }
    }

    /// A tally store with 50 steps read by a page, and its Inspector, whose checkpoints are
    /// 1,000 steps apart: every step but the last two is recomputed from step 0.
    private func withFiftyStepsOnAPage(
      _ body:
        @MainActor (
          Store<Tally.State, Tally.Action>, Inspector<Tally.State, Tally.Action>,
          inout WireConnection
        ) async throws -> Void
    ) async throws {
      let store = Store(initialState: Tally.State()) { Tally() }
      var configuration = InspectorConfiguration()
      configuration.checkpointInterval = 1_000
      let inspector = try await Inspector(store: store, configuration: configuration)
      try await withInspectorPage(inspector) { page, _ in
        for _ in 1...50 { store.send(.add(1)) }
        _ = try await page.readSteps(count: 50)
        try await body(store, inspector, &page)
      }
      await inspector.stop()
    }

    /// A following page's details take a share of the time: the next "follow" waits, and any
    /// other request from the page cancels it, so that it can't replace what the page shows.
    @Test func aFollowWaitsForItsShareOfTheTimeAndTheNextRequestCancelsIt() async throws {
      let store = Store(initialState: Tally.State()) { Tally() }
      let inspector = try await Inspector(store: store)
      let session = inspector.session
      let replays = Replays()
      let waiting = Gate()
      let release = Gate()
      // NB: a tiny share: the wait after any answer is long, however fast the machine.
      session.slicing.followShare = 1e-9
      session.slicing.wait = { [replays] in
        replays.waits.append($0)
        waiting.open()
        await release.wait()
      }
      try await withInspectorPage(inspector) { page, _ in
        for _ in 1...5 { store.send(.add(1)) }
        _ = try await page.readSteps(count: 5)
        try await page.sendText(#"{"type":"follow"}"#)
        #expect(try await page.read(until: "detail").message["step"] as? Int == 5)
        #expect(replays.waits.isEmpty)

        try await page.sendText(#"{"type":"follow"}"#)
        await waiting.wait()
        #expect(replays.waits.count == 1)
        #expect(replays.waits.allSatisfy { $0 > .zero })

        try await page.sendText(#"{"type":"jump","step":2}"#)
        let jump = try await page.read(until: "detail").message
        #expect(jump["step"] as? Int == 2)
        #expect(jump["viewing"] as? Bool == true)
        release.open()
        await session.lastFollow?.value
        try await page.sendText(#"{"type":"resume"}"#)
        // The follow that waited sent nothing: the next message answers the resume.
        #expect(try await page.readMessage()["type"] as? String == "live")
      }
      await inspector.stop()
    }

    /// A view of a far step tells the page how far its replay has come, and the page's
    /// "cancel", read while the replay runs, stops it: no detail comes, and the page is told.
    @Test(.timeLimit(.minutes(1)))
    func aLongViewReportsItsProgressAndACancelStopsIt() async throws {
      try await withFiftyStepsOnAPage { store, inspector, page in
        let gates = SliceGates(session: inspector.session)
        inspector.session.slicing.progressInterval = .zero
        try await page.sendText(#"{"type":"jump","step":40}"#)
        // NB: the step before 40 is recomputed first, from the checkpoint at 0.
        let progress = try await page.read(until: "progress").message
        #expect(progress["context"] as? String == "jump")
        #expect(progress["step"] as? Int == 40)
        #expect(progress["done"] as? Int == 1)
        #expect(progress["total"] as? Int == 39)
        await gates.pausedOrFinished.wait()

        // The replay waits at its pause: a cancel is read meanwhile, and ends it there.
        try await page.sendText(#"{"type":"cancel"}"#)
        let cancelled = try await page.read(until: "cancelled")
        #expect(cancelled.message["requests"] as? Int == 1)
        #expect(!cancelled.before.contains { $0["type"] as? String == "detail" })
        #expect(!gates.isFinished)
        try await page.sendText(#"{"type":"resume"}"#)
        #expect(try await page.readMessage()["type"] as? String == "live")
      }
    }

    /// A page's requests are answered in the order it sent them, though the socket is read
    /// while a long one runs; a cancel stops the views, never a change the page asked for.
    @Test(.timeLimit(.minutes(1)))
    func requestsAreAnsweredInOrderAndACancelLeavesASendAlone() async throws {
      try await withFiftyStepsOnAPage { store, inspector, page in
        let gates = SliceGates(session: inspector.session)
        try await page.sendText(#"{"type":"jump","step":40}"#)
        await gates.pausedOrFinished.wait()
        try await page.sendText(#"{"type":"resume"}"#)
        gates.resume.open()
        let detail = try await page.read(until: "detail").message
        #expect(detail["step"] as? Int == 40)
        #expect(try await page.read(until: "live").message["stepCount"] as? Int == 50)

        // A far view, a send behind it, then a cancel: the send is made, after the view.
        store.send(.add(1))
        _ = try await page.readSteps(count: 1)
        let held = SliceGates(session: inspector.session)
        try await page.sendText(#"{"type":"jump","step":30}"#)
        await held.pausedOrFinished.wait()
        try await page.sendText(#"{"type":"send","action":{"add":{"_0":100}}}"#)
        try await page.sendText(#"{"type":"cancel"}"#)
        let cancelled = try await page.read(until: "cancelled")
        #expect(cancelled.message["requests"] as? Int == 1)
        #expect(cancelled.before.contains { $0["type"] as? String == "sent" })
        #expect(!cancelled.before.contains { $0["type"] as? String == "detail" })
        #expect(store.count == 151)
      }
    }

    /// A step's state is encoded off the main actor: the app reduces a key typed meanwhile,
    /// and the detail shows the step's state, not the one the app moved on to.
    @Test func aStateIsEncodedWhileTheAppGoesOn() async throws {
      try await withEncodingHeldUp(steps: 1) { store, view, barrier, _ in
        let detail = view(1)
        await barrier.started.wait()
        // The main actor runs while the encoding waits: before, it ran the encoding.
        #expect(barrier.isWaiting)
        store.send(.add)
        #expect(store.count == 2)
        barrier.release()
        let count = try await detail.value.count
        #expect(count == 1)
      }
    }

    /// Two pages' requests come while a state is encoded: the second encoding waits for the
    /// first, off the main actor, and both pages are answered.
    @Test(.timeLimit(.minutes(1)))
    func encodingsRequestedTogetherRunOneAfterTheOther() async throws {
      try await withEncodingHeldUp(steps: 4) { store, view, barrier, _ in
        let first = view(1)
        await barrier.started.wait()
        let second = view(3)
        store.send(.add)
        barrier.release()
        let counts = [try await first.value.count, try await second.value.count]
        #expect(counts == [1, 3])
      }
    }

    /// A step's detail is two states: the one before it, then its own. Steps the app records
    /// while the first is encoded don't make the second a replay: the states at hand are taken
    /// when the request is read. (They were looked up after the first encoding, when the
    /// store's last two states were newer ones: a page that follows the live end replayed from
    /// a checkpoint on every burst, hundreds of megabytes at 20,000 todos with their undo stack.)
    @Test func stepsRecordedWhileADetailIsEncodedDontMakeItAReplay() async throws {
      try await withEncodingHeldUp(steps: 3) { store, view, barrier, session in
        let replays = Replays()
        session.slicing = SliceBudget(
          maximumSteps: 1, pause: { [replays] in replays.count += 1 })
        // NB: the detail of step 3 encodes step 2 first; that encoding waits.
        let detail = view(3)
        await barrier.started.wait()
        store.send(.add)
        store.send(.add)
        barrier.release()
        let (count, recomputed) = try await detail.value
        #expect(count == 3)
        #expect(recomputed == false)
        #expect(replays.count == 0)
      }
    }

    /// Runs `body` with a store `steps` steps in, whose state's encoding `barrier` holds up once
    /// armed (it is, when `body` runs), and a `view` that asks for a step's detail as a page of
    /// its own and returns the count its state shows and whether it says it was recomputed. Off
    /// the main serial executor, which runs a detached task on the main actor too.
    private func withEncodingHeldUp(
      steps: Int,
      _ body: (
        _ store: Store<SlowToEncode.State, SlowToEncode.Action>,
        _ view: @escaping @MainActor (Int) -> Task<(count: Int?, recomputed: Bool?), any Error>,
        _ barrier: EncodeBarrier,
        _ session: InspectorSession<SlowToEncode.State, SlowToEncode.Action>
      ) async throws -> Void
    ) async throws {
      uncheckedUseMainSerialExecutor = false
      defer { uncheckedUseMainSerialExecutor = true }
      let barrier = EncodeBarrier()
      let store = Store(initialState: SlowToEncode.State(barrier: barrier)) { SlowToEncode() }
      let inspector = try await Inspector(store: store)
      try await withInspectorPage(inspector) { page, _ in
        for _ in 1...steps { store.send(.add) }
        _ = try await page.readSteps(count: steps)
        barrier.arm()
        let view: @MainActor (Int) -> Task<(count: Int?, recomputed: Bool?), any Error> = {
          step in
          Task { @MainActor in
            let channel = NIOAsyncTestingChannel()
            await inspector.session.handle(
              #"{"type":"detail","step":\#(step)}"#, from: PageConnection(channel: channel))
            let frame = try #require(try await channel.readOutbound(as: WebSocketFrame.self))
            _ = try? await channel.finish()
            let message = try #require(
              JSONSerialization.jsonObject(with: Data(frame.unmaskedData.readableBytesView))
                as? [String: Any])
            return (
              (message["state"] as? [String: Any])?["count"] as? Int,
              message["recomputed"] as? Bool
            )
          }
        }
        try await body(store, view, barrier, inspector.session)
      }
      await inspector.stop()
    }

    /// A state that holds a class instance is encoded on the main actor, where the app can't
    /// change the instance meanwhile, and shows it as it is.
    @Test func aStateHoldingAClassInstanceIsEncodedOnTheMainActor() async throws {
      let box = ValueHolder()
      let store = Store(initialState: Boxed.State(box: box)) { Boxed() }
      let inspector = try await Inspector(store: store)
      try await withInspectorPage(inspector) { page, _ in
        store.send(.bump)
        _ = try await page.readSteps(count: 1)
        try await page.sendText(#"{"type":"detail","step":1}"#)
        let detail = try await page.read(until: "detail").message
        let state = try #require(detail["state"] as? [String: Any])
        #expect((state["box"] as? [String: Any])?["value"] as? Int == 1)
        #expect(inspector.session.encodesOnMainActor)
      }
      await inspector.stop()
    }

    /// The encoder reuses what it met in the step before by the value's bits: a value holding a
    /// shared value has the same bits at two steps and different contents, and must not be.
    @Test func aSharedValueChangedAloneIsSeenByTheNextStepsDetail() async throws {
      let store = Store(initialState: SharedNotes.State(lines: Shared(value: ["a"]))) {
        SharedNotes()
      }
      let inspector = try await Inspector(store: store)
      try await withInspectorPage(inspector) { page, _ in
        store.send(.add("b"))
        store.send(.removeFirst)
        _ = try await page.readSteps(count: 2)
        try await page.sendText(#"{"type":"detail","step":1}"#)
        _ = try await page.readText(until: "detail")
        try await page.sendText(#"{"type":"detail","step":2}"#)
        let text = try await page.readText(until: "detail")
        let detail = try #require(
          JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect((detail["state"] as? [String: Any])?["lines"] as? [String] == ["b"])
        #expect(detail["changeCount"] as? Int == 1)
        #expect((detail["diff"] as? String)?.contains("lines[0] (removed)") == true)
      }
      await inspector.stop()
    }

    @Test func anExportHoldsTheActionsAndGrowsLinearlyWithTheSteps() async throws {
      func exportSize(steps: Int) async throws -> Int {
        let store = Store(initialState: Catalog.State()) { Catalog() }
        let inspector = try await Inspector(store: store)
        let size = try await withInspectorPage(inspector) { page, _ in
          for _ in 0..<steps { store.send(.fill(1)) }
          _ = try await page.readSteps(count: steps)
          let export = try await inspector.session.exportData()
          let recording = try RecordingOf<Catalog>(jsonData: export)
          #expect(recording.actions.count == steps)
          #expect(recording.checkpoints.map(\.step) == [steps])
          #expect(recording.replay(against: Catalog()).isReproduced)
          return export.count
        }
        await inspector.stop()
        return size
      }
      let single = try await exportSize(steps: 150)
      let double = try await exportSize(steps: 300)
      // NB: every step's state would make it grow as the square of the steps (4× here).
      #expect(Double(double) / Double(single) < 2.5)
    }

    @Test func anActionSentWhileAnExportRunsIsReducedBeforeTheExportEnds() async throws {
      let store = Store(initialState: Tally.State()) { Tally() }
      let inspector = try await Inspector(store: store)
      try await withInspectorPage(inspector) { page, _ in
        for _ in 1...20 { store.send(.add(1)) }
        _ = try await page.readSteps(count: 20)
        let gates = SliceGates(session: inspector.session)
        let export = Task { @MainActor in
          defer { gates.finished() }
          return try await inspector.session.exportData()
        }
        await gates.pausedOrFinished.wait()
        store.send(.add(100))
        #expect(!gates.isFinished)
        #expect(store.count == 120)
        gates.resume.open()
        let recording = try RecordingOf<Tally>(jsonData: try await export.value)
        #expect(recording.actions.count >= 20)
      }
      await inspector.stop()
    }

    @Test func anActionSentWhileAStepIsRecomputedIsReducedBeforeTheDetailIsSent() async throws {
      try await withFiftyStepsOnAPage { store, inspector, page in
        let gates = SliceGates(session: inspector.session)
        let channel = NIOAsyncTestingChannel()
        let viewer = PageConnection(channel: channel)
        let detail = Task { @MainActor in
          defer { gates.finished() }
          await inspector.session.handle(#"{"type":"detail","step":40}"#, from: viewer)
        }
        await gates.pausedOrFinished.wait()
        store.send(.add(100))
        #expect(!gates.isFinished)
        #expect(store.count == 150)
        gates.resume.open()
        await detail.value
        let frame = try #require(try await channel.readOutbound(as: WebSocketFrame.self))
        let message = try #require(
          JSONSerialization.jsonObject(with: Data(frame.unmaskedData.readableBytesView))
            as? [String: Any])
        #expect(message["type"] as? String == "detail")
        #expect((message["state"] as? [String: Any])?["count"] as? Int == 40)
        _ = try? await channel.finish()
      }
    }

    /// A skip recomputes the steps after it a slice at a time: an action the app sends
    /// meanwhile is reduced at once, and counts in the result (it is one of the steps after
    /// the skipped one). It recomputed them all at once on the main actor: at 20,000 todos a
    /// skip of an early step froze the app for as long as the app took to make them.
    @Test func anActionSentWhileASkipRecomputesIsReducedAtOnceAndCountsInTheResult()
      async throws
    {
      try await withFiftyStepsOnAPage { store, inspector, page in
        await sendAHundred(whileRecomputing: #"{"type":"skip","step":10}"#, store, inspector)
        // Fifty adds of 1 but the skipped one, and the add of 100 made meanwhile.
        #expect(store.count == 149)
        let timeline = try await page.read(until: "timeline").message
        #expect((timeline["note"] as? String)?.contains("Skipped step 10") == true)
        #expect(inspector.session.state(at: 51)?.count == 149)
      }
    }

    /// The steps the app takes during a skip are recomputed after it a slice at a time too: the
    /// app runs between those slices, and what it does there counts in the result. (They were
    /// recomputed at once, with no pause: at 20,000 todos, the keys typed during a skip held the
    /// main actor a quarter of a second at its end.)
    @Test func theStepsTakenDuringASkipAreCaughtUpASliceAtATime() async throws {
      try await withFiftyStepsOnAPage { store, inspector, page in
        // NB: fifty steps from the checkpoint at 0, one a slice: 49 pauses; the 50th is the
        // first of the catch-up's.
        var pauses = 0
        inspector.session.slicing = SliceBudget(
          maximumSteps: 1, maximumDuration: .seconds(3_600),
          pause: {
            pauses += 1
            if pauses == 1 {
              store.send(.add(100))
              store.send(.add(100))
            } else if pauses == 50 {
              store.send(.add(1_000))
            }
          })
        try await page.sendText(#"{"type":"skip","step":10}"#)
        let timeline = try await page.read(until: "timeline").message
        #expect((timeline["note"] as? String)?.contains("Skipped step 10") == true)
        #expect(pauses == 50)
        // Fifty adds of 1 but the skipped one, two of 100 and one of 1,000 made meanwhile.
        #expect(store.count == 1_249)
        #expect(inspector.session.timeline?.lastStep == 53)
        #expect(inspector.session.state(at: 53)?.count == 1_249)
      }
    }

    /// A continue recomputes the state it goes back to a slice at a time; the steps the app
    /// takes meanwhile are set aside with the others, and undo puts them all back.
    @Test func stepsTakenWhileAContinueRecomputesAreSetAsideWithTheOthers() async throws {
      try await withFiftyStepsOnAPage { store, inspector, page in
        await sendAHundred(whileRecomputing: #"{"type":"continue","step":20}"#, store, inspector)
        #expect(store.count == 20)
        let timeline = try await page.read(until: "timeline").message
        #expect((timeline["note"] as? String)?.contains("steps 21 to 51 were set aside") == true)

        let channel = NIOAsyncTestingChannel()
        await inspector.session.handle(
          #"{"type":"undoContinue"}"#, from: PageConnection(channel: channel))
        #expect(store.count == 150)
        _ = try? await channel.finish()
      }
    }

    /// Sends `move` from a page of its own, holds its recomputation at its first slice, and
    /// sends an add of 100 to the tally of 50 meanwhile: it is reduced at once. Returns once
    /// the move is answered.
    private func sendAHundred(
      whileRecomputing move: String, _ store: Store<Tally.State, Tally.Action>,
      _ inspector: Inspector<Tally.State, Tally.Action>
    ) async {
      let gates = SliceGates(session: inspector.session)
      let channel = NIOAsyncTestingChannel()
      let viewer = PageConnection(channel: channel)
      let answer = Task { @MainActor in
        defer { gates.finished() }
        await inspector.session.handle(move, from: viewer)
      }
      await gates.pausedOrFinished.wait()
      store.send(.add(100))
      #expect(!gates.isFinished)
      #expect(store.count == 150)
      gates.resume.open()
      await answer.value
      _ = try? await channel.finish()
    }

    /// Two pages move the store at once: the move that ends first wins, and the other, whose
    /// steps were recomputed from the session before it, changes nothing and says so. (Had it
    /// gone on, the skip would have put back the 30 steps the continue set aside.)
    @Test func aMoveOvertakenByAnotherPagesMoveChangesNothing() async throws {
      try await withFiftyStepsOnAPage { store, inspector, page in
        let held = FirstSliceGate(session: inspector.session)
        let channel = NIOAsyncTestingChannel()
        let first = PageConnection(channel: channel)
        let skip = Task { @MainActor in
          await inspector.session.handle(#"{"type":"skip","step":10}"#, from: first)
        }
        await held.paused.wait()
        // NB: the second page's continue runs through: only the first slice is held.
        try await page.sendText(#"{"type":"continue","step":20}"#)
        let timeline = try await page.read(until: "timeline").message
        #expect((timeline["note"] as? String)?.contains("were set aside") == true)
        #expect(store.count == 20)
        held.resume.open()
        await skip.value

        var answers: [[String: Any]] = []
        while let frame = try await channel.readOutbound(as: WebSocketFrame.self) {
          let message = try JSONSerialization.jsonObject(
            with: Data(frame.unmaskedData.readableBytesView))
          if let message = message as? [String: Any] { answers.append(message) }
        }
        let error = try #require(answers.first { $0["type"] as? String == "error" })
        #expect((error["message"] as? String)?.contains("nothing was changed") == true)
        #expect(store.count == 20)
        #expect(inspector.session.timeline?.step(10)?.isSkipped == false)
        #expect(inspector.session.timeline?.lastStep == 20)
        _ = try? await channel.finish()
      }
    }

    /// The whole timeline sent again (after a move, to a page that connects) encodes no
    /// action: a step's summary is made once, when it is recorded. (Each one was encoded again:
    /// at 20,000 steps, 0.3 s of the main actor after every move, and a key waited as long.)
    @Test func theTimelineIsSentAgainWithoutEncodingAnAction() async throws {
      let store = Store(initialState: Stamps.State()) { Stamps() }
      let inspector = try await Inspector(store: store)
      try await withInspectorPage(inspector) { page, _ in
        for _ in 1...100 { store.send(.stamp) }
        _ = try await page.readSteps(count: 100)
        let encoded = Stamps.Action.encodeCount.withLock { $0 }
        try await page.sendText(#"{"type":"skip","step":10}"#)
        let timeline = try await page.read(until: "timeline").message
        #expect(timeline["stepCount"] as? Int == 100)
        #expect(store.count == 99)
        try await withInspectorPage(inspector) { second, _ in
          let steps = try await second.readSteps(count: 100)
          #expect(steps.count == 100)
        }
        #expect(Stamps.Action.encodeCount.withLock { $0 } == encoded)
      }
      await inspector.stop()
    }

    /// A timeline of thousands of steps, sent after a move or to a page that connects, is
    /// written off the main actor, in its place among the page's messages: an action the app
    /// sends meanwhile is reduced at once, and its step reaches the page after the timeline.
    /// (It was written on the main actor: at 20,000 steps, 58 ms at the end of every move.)
    @Test(.timeLimit(.minutes(1)))
    func aLongTimelineIsWrittenOffTheMainActorInItsPlace() async throws {
      let store = Store(initialState: Tally.State()) { Tally() }
      let inspector = try await Inspector(store: store)
      try await withInspectorPage(inspector) { page, _ in
        for _ in 1...2_500 { store.send(.add(1)) }
        _ = try await page.readSteps(count: 2_500)
        let started = Gate()
        let release = Gate()
        inspector.session.timelineWritingStarted = {
          started.open()
          await release.wait()
        }
        try await page.sendText(#"{"type":"skip","step":2490}"#)
        await started.wait()
        store.send(.add(100))
        #expect(store.count == 2_599)
        release.open()
        let timeline = try await page.read(until: "timeline").message
        #expect(timeline["stepCount"] as? Int == 2_500)
        #expect((timeline["note"] as? String)?.contains("Skipped step 2490") == true)
        let steps = try await page.readSteps(count: 2_501)
        #expect(steps.map { $0["i"] as? Int } == Array(1...2_501))
        #expect(steps[2_489]["k"] as? Bool == true)

        inspector.session.timelineWritingStarted = nil
        try await withInspectorPage(inspector) { second, _ in
          let timeline = try await second.read(until: "timeline").message
          #expect(timeline["stepCount"] as? Int == 2_501)
          let steps = try await second.readSteps(count: 2_501)
          #expect(steps.map { $0["i"] as? Int } == Array(1...2_501))
        }
      }
      await inspector.stop()
    }

    /// A move cancelled by the page while it recomputes (the page's Cancel beside its
    /// progress) changes nothing: the store moves only once the steps are recomputed.
    @Test func aSkipCancelledWhileItRecomputesChangesNothing() async throws {
      try await withFiftyStepsOnAPage { store, inspector, page in
        let gates = SliceGates(session: inspector.session)
        try await page.sendText(#"{"type":"skip","step":10}"#)
        await gates.pausedOrFinished.wait()
        // NB: the cancel ends the pause (a cancelled task's wait returns).
        try await page.sendText(#"{"type":"cancel"}"#)
        let cancelled = try await page.read(until: "cancelled").message
        gates.resume.open()
        #expect(cancelled["requests"] as? Int == 1)
        #expect(store.count == 50)
        #expect(inspector.session.timeline?.step(10)?.isSkipped == false)
        // NB: the next request is answered: nothing of the skip is left under way.
        try await page.sendText(#"{"type":"detail","step":50}"#)
        let detail = try await page.read(until: "detail").message
        #expect((detail["state"] as? [String: Any])?["count"] as? Int == 50)
      }
    }

    @Test func anActionSentWhileAnImportReplaysIsReducedBeforeTheImportEnds() async throws {
      let store = Store(initialState: Tally.State()) { Tally() }
      let inspector = try await Inspector(store: store)
      inspector.replaysImports(against: Tally())
      try await withInspectorPage(inspector) { page, _ in
        for _ in 1...20 { store.send(.add(1)) }
        _ = try await page.readSteps(count: 20)
        let export = try await inspector.session.exportData()
        let importSession = try #require(inspector.session.importSession)
        let gates = SliceGates(session: inspector.session)
        let replay = Task { @MainActor in
          defer { gates.finished() }
          return await importSession(export)
        }
        await gates.pausedOrFinished.wait()
        store.send(.add(100))
        #expect(!gates.isFinished)
        #expect(store.count == 120)
        gates.resume.open()
        let report = await replay.value
        #expect(report.status == .ok)
        #expect(String(decoding: report.body, as: UTF8.self).contains(#""reproduced":true"#))
      }
      await inspector.stop()
    }
  }
}

/// What the session's injected pauses and waits saw.
@MainActor
private final class Replays {
  var count = 0
  var waits: [Duration] = []
}

/// Gates on the session's slices: its work stops at its first pause until `resume` opens;
/// `pausedOrFinished` opens at that pause, or when the work finished without one.
@MainActor
private final class SliceGates {
  let pausedOrFinished = Gate()
  let resume = Gate()
  private(set) var isFinished = false

  init(session: InspectorSession<some Any, some Any>) {
    session.slicing = SliceBudget(
      maximumSteps: 1, maximumDuration: .seconds(3_600),
      pause: { [pausedOrFinished, resume] in
        pausedOrFinished.open()
        await resume.wait()
      })
  }

  func finished() {
    isFinished = true
    pausedOrFinished.open()
  }
}

/// A count of stamps, whose action counts the times it is encoded.
struct Stamps: Reducer {
  struct State: Codable, Equatable {
    var count = 0
  }

  enum Action: Equatable, Codable {
    case stamp

    static let encodeCount = Mutex(0)

    init(from decoder: any Decoder) throws {
      _ = try decoder.singleValueContainer().decode(String.self)
      self = .stamp
    }

    func encode(to encoder: any Encoder) throws {
      Self.encodeCount.withLock { $0 += 1 }
      var container = encoder.singleValueContainer()
      try container.encode("stamp")
    }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    return .none
  }
}

/// A list of items with long titles: its state, encoded, is larger than a page's message.
struct Catalog: Reducer {
  struct Item: Codable, Equatable, Identifiable {
    let id: Int
    var title: String
  }

  struct State: Codable, Equatable {
    var items: [Item] = []
  }

  enum Action: Codable, Equatable {
    case fill(Int)
    case rename(id: Int, title: String)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .fill(let count):
      let start = state.items.count
      state.items += (start..<(start + count)).map {
        Item(id: $0, title: "Item \($0): " + String(repeating: "x", count: 300))
      }
    case .rename(let id, let title):
      if let index = state.items.firstIndex(where: { $0.id == id }) {
        state.items[index].title = title
      }
    }
    return .none
  }
}

/// Holds an encoding up, once armed, until the test releases it (or 5 s pass: the bound of a
/// failing run, where the encoding holds the main actor and the test can't release it).
final class EncodeBarrier: Sendable {
  let started = Gate()
  private let semaphore = DispatchSemaphore(value: 0)
  private let state = Mutex((armed: false, waiting: false))

  func arm() { state.withLock { $0.armed = true } }
  var isWaiting: Bool { state.withLock { $0.waiting } }
  func release() { semaphore.signal() }

  func hold() {
    let armed = state.withLock { state in
      defer { state.armed = false }
      state.waiting = state.armed
      return state.armed
    }
    guard armed else { return }
    started.open()
    _ = semaphore.wait(timeout: .now() + 5)
    state.withLock { $0.waiting = false }
  }
}

/// A counter whose state holds a value that holds its encoding up (see ``EncodeBarrier``).
struct SlowToEncode: Reducer {
  struct Marker: Encodable, Equatable, Sendable {
    let barrier: EncodeBarrier
    static func == (lhs: Self, rhs: Self) -> Bool { lhs.barrier === rhs.barrier }
    func encode(to encoder: any Encoder) throws {
      barrier.hold()
      var container = encoder.singleValueContainer()
      try container.encode("marker")
    }
  }

  struct State: Encodable, Equatable, Sendable {
    var count = 0
    var marker: Marker
    init(barrier: EncodeBarrier) { marker = Marker(barrier: barrier) }
  }

  enum Action: Codable, Equatable, Sendable { case add }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    return .none
  }
}

/// A class instance with a value, in a state.
final class ValueHolder: Encodable, @unchecked Sendable {
  // NB: `@unchecked Sendable`: read and written on the main actor only, by the test's store.
  var value = 0
}

/// A state holding a class instance.
struct Boxed: Reducer {
  struct State: Encodable, Sendable {
    let box: ValueHolder
  }

  enum Action: Codable, Equatable, Sendable { case bump }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.box.value += 1
    return .none
  }
}

/// Holds a session's first slice of recomputation until `resume` opens; every later slice, of
/// that work or any other, runs through.
@MainActor
private final class FirstSliceGate {
  let paused = Gate()
  let resume = Gate()
  private var held = false

  init(session: InspectorSession<some Any, some Any>) {
    session.slicing = SliceBudget(
      maximumSteps: 1, maximumDuration: .seconds(3_600),
      pause: { [self] in
        guard !held else { return }
        held = true
        paused.open()
        await resume.wait()
      })
  }
}
