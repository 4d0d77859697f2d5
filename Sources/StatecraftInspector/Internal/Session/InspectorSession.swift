// Owns the Inspector's shell around a session: the pages connected, the store's steps recorded
// into the timeline (InspectorTimeline.swift, the policy of what is kept), the steps sent to the
// pages, and the pages' messages, each answered in order (PageWork.swift). It records only while
// a page is connected, or steps are set aside (so that a page that reloads can still undo):
// otherwise the store has no step observer, and pays nothing. What a page views is in
// InspectorSession+Views.swift, what changes the store in InspectorSession+Moves.swift, and the
// export in InspectorExport.swift.
import Foundation
import Statecraft

#if canImport(Glibc)
  import Glibc
#endif

/// Gives the allocator's free memory back to the system (glibc's `malloc_trim`), so that the
/// memory of a timeline dropped when the last page leaves shows as returned, not only as free
/// inside the process.
private func returnFreedMemoryToTheSystem() {
  #if canImport(Glibc)
    // NB: looked up at run time: `malloc_trim` is glibc's, and not in the Glibc module.
    typealias MallocTrim = @convention(c) (Int) -> Int32
    // glibc's RTLD_DEFAULT is a null handle: the symbol is looked up in the whole process.
    guard let symbol = dlsym(nil, "malloc_trim") else { return }
    _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
  #endif
}

@MainActor
final class InspectorSession<State, Action> {
  let feature: InspectedFeature<State, Action>
  /// The limits of each timeline the session starts (a timeline keeps its own: ``timeline``'s
  /// are the ones in force).
  let limits: TimelineLimits
  var generateTest: (@MainActor (Data) throws -> String)?
  var importSession: (@MainActor (Data) async -> InspectorResponse)?
  /// How the session's long work is cut into slices.
  var slicing = SliceBudget()
  /// Awaited off the main actor before a timeline is written there (tests hold it up).
  var timelineWritingStarted: (@Sendable () async -> Void)?

  var timeline: InspectorTimeline<Action>?
  /// The steps set aside by the last "continue from here", which "undo" puts back.
  var branch: InspectorTimeline<Action>.Branch?
  /// Sessions set aside by earlier continues, each as "undo continue" would have made it: a
  /// later continue, while steps were set aside, would have replaced them. Kept whole (the
  /// timeline's steps are small, and its states are shared with it until it drops them), for
  /// the app to keep at quit (`Inspector.setAsideSessions()`).
  var earlierBranches: [InspectorTimeline<Action>] = []
  /// Whether anything is set aside: the timeline then stays when the last page leaves.
  var hasSetAside: Bool { branch != nil || !earlierBranches.isEmpty }
  /// The shared values the state holds, found when the timeline starts.
  var sharedReferences: [any AnySharedReference] = []
  /// The sum of their change counts after the last step, and the store's count of replaced
  /// states then: a difference before the next step means its state did not come from the
  /// last step's by the reducer alone, so the next step is a checkpoint.
  var sharedChangesAfterLastStep: UInt64 = 0
  var replacementsAfterLastStep: UInt64 = 0
  var needsCheckpoint = false
  /// When the timeline started.
  var start = ContinuousClock.now
  /// The steps sent to the pages so far (the last one's number).
  var sentCount = 0
  var flushScheduled = false
  var observerIDs: [UInt64] = []
  var pages: [ObjectIdentifier: PageConnection] = [:]
  /// The last two states recomputed (see `remember(_:)`).
  var recomputed: [InspectorTimeline<Action>.Checkpoint] = []
  /// The trees of the last feature states sent to the pages, by step, for the pages' requests
  /// for more of them.
  var trees: [(step: Int, generation: Int, tree: JSONValue)] = []
  /// The states of the last ``lastStatesKept`` steps, as the store had them. A page that follows
  /// the live end views them, and they share the store's storage with the states it viewed
  /// before (see TreeEncoder.swift), where a state recomputed from a checkpoint shares none.
  var lastStates: [InspectorTimeline<Action>.Checkpoint] = []
  /// The live step's state and the two before it: a detail is a state and the one before it,
  /// so that a page that leaves the live end views the last two steps it saw without a replay
  /// (the app often takes a step more meanwhile). Steps after one another share their storage
  /// but for what changed: the third state costs what one step changed, not a state.
  static var lastStatesKept: Int { 3 }

  /// The earliest the next "follow" is answered (see `SliceBudget.followShare`).
  var nextFollowAnswer = ContinuousClock.now
  /// What each page has under way: its requests in order, and its last "follow".
  let work = PageWork()
  /// The last answer to a "follow", cancelled or not (the tests await it).
  var lastFollow: Task<Void, Never>? { work.lastFollow }

  /// The last states the store had (``lastStates``: the live step's and the two before it, as a
  /// detail diffs a state with the one before it) when a page left the live end to view an
  /// older step, until a page follows the live end again. Coming back to where it left costs
  /// no replay, however many steps the app took meanwhile (they push them out of
  /// `lastStates`). They share the store's storage when they
  /// are taken, and cost at most what the store's last three states do as the app goes on.
  var leftLiveEnd: [InspectorTimeline<Action>.Checkpoint] = []

  /// The states at hand without recomputing: the last steps', the live end a page left, and
  /// the last two recomputed.
  var knownStates: [InspectorTimeline<Action>.Checkpoint] {
    lastStates + leftLiveEnd + recomputed
  }

  /// Whether the store had `step`'s state (not recomputed): one of the last steps', or of the
  /// live end a page left.
  func storeHad(_ step: Int) -> Bool {
    lastStates.contains { $0.step == step } || leftLiveEnd.contains { $0.step == step }
  }

  /// Keeps the live end's states when a page views an older `step` (see ``leftLiveEnd``).
  func pageViews(_ step: Int) {
    guard leftLiveEnd.isEmpty, let live = lastStates.last, live.step == timeline?.lastStep,
      step != live.step
    else { return }
    leftLiveEnd = lastStates
  }

  /// Encodes the states to trees, remembering the last one's values; a new one when the
  /// session stops recording (an encoding under way off the main actor keeps the old one).
  var treeEncoder = TreeEncoder()
  /// The step of the store's own states (``lastStates``, ``leftLiveEnd``) the encoder met
  /// last, if it met no other since. Once the session no longer holds that step's state, the
  /// encoder forgets the values it met: they would be the only copy of a state the app left
  /// behind (at 20,000 todos with their undo stack, 300 MB more while a page followed a burst
  /// of adds). A recomputed state's values stay, as the state does (``recomputed``), for the
  /// view of the step after it.
  var encodedStoreStep: Int?
  /// The encoding under way off the main actor, if any: encodings run one at a time.
  var encoding: Task<JSONValue?, Never>?
  /// Whether the feature's states are encoded on the main actor: once one held a class
  /// instance or a shared value whose value was not recorded (see `encodeTree`).
  var encodesOnMainActor = false
  /// Whether a state was encoded off the main actor (it held no class instance), and none is
  /// encoded on it since: what the session lets go of may then be freed off it too.
  var encodesOffMainActor: Bool { hasEncodedOffMainActor && !encodesOnMainActor }
  var hasEncodedOffMainActor = false
  /// Changes when a step's state may no longer be what it was: a new timeline, a continue, an
  /// undo. Work that awaited across one starts again.
  var generation = 0

  init(feature: InspectedFeature<State, Action>, limits: TimelineLimits) {
    self.feature = feature
    self.limits = TimelineLimits(
      maximumSteps: max(limits.maximumSteps, 1),
      checkpointInterval: max(limits.checkpointInterval, 1),
      maximumCheckpoints: max(limits.maximumCheckpoints, 2))
  }

  var pageCount: Int { pages.count }

  /// Waiters for a number of pages (tests await a page's departure this way).
  var pageCountWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

  /// Returns once `count` pages are connected.
  func waitForPageCount(_ count: Int) async {
    guard pages.count != count else { return }
    await withCheckedContinuation { pageCountWaiters.append((count, $0)) }
  }

  func pageCountChanged() {
    let ready = pageCountWaiters.filter { $0.count == pages.count }
    pageCountWaiters.removeAll { $0.count == pages.count }
    for waiter in ready { waiter.continuation.resume() }
  }
  var isRecording: Bool { !observerIDs.isEmpty }

  /// The number of states the timeline holds (its checkpoints), for the tests of its memory.
  var keptStateCount: Int {
    (timeline?.checkpoints.count ?? 0) + (branch?.checkpoints.count ?? 0)
      + earlierBranches.reduce(0) { $0 + $1.checkpoints.count }
  }

  /// What the page may offer.
  var capabilities: [String: Bool] {
    [
      "send": Action.self is any Decodable.Type,
      "export": canExport,
      "import": importSession != nil,
      "generateTest": generateTest != nil && canExport,
      "continue": true,
      "skip": true,
    ]
  }

  var canExport: Bool {
    State.self is any Encodable.Type && Action.self is any Encodable.Type
  }

  // MARK: - Pages

  /// Starts recording when it is the first page; sends the page what happened so far; reads its
  /// messages until it disconnects.
  func connect(_ page: PageConnection) {
    if pages.isEmpty && !isRecording {
      guard startRecording() else {
        page.send(
          InspectorMessage.error(context: "connect", message: "The inspected store was released."))
        page.close()
        return
      }
    }
    pages[ObjectIdentifier(page)] = page
    defer { pageCountChanged() }
    page.send(
      InspectorMessage.welcome(
        feature: feature.name, capabilities: capabilities, stepCount: sentCount))
    sendTimeline(to: [page], note: nil)
    Task { @MainActor [weak self] in
      for await message in page.messages {
        guard let self else { break }
        if case .text(let text) = message { await self.receive(text, from: page) }
      }
      self?.disconnect(page)
    }
  }

  func disconnect(_ page: PageConnection) {
    guard pages.removeValue(forKey: ObjectIdentifier(page)) != nil else { return }
    work.forget(ObjectIdentifier(page))
    // NB: while steps are set aside, the timeline stays, so that a page that reloads (or the
    // next one) can still undo the continue, and the app can keep them at quit.
    if pages.isEmpty && !hasSetAside { stopRecording() }
    pageCountChanged()
  }

  /// Closes every page and stops recording.
  func closeAll() {
    for page in pages.values { page.close() }
    pages.removeAll()
    stopRecording()
    pageCountChanged()
  }

  func startRecording() -> Bool {
    guard let root = feature.currentRootState(), feature.featureState(root) != nil else {
      return false
    }
    sharedReferences = SharedSnapshot.references(in: root)
    timeline = InspectorTimeline(
      start: .init(step: 0, rootState: root, shared: snapshot()), limits: limits)
    branch = nil
    earlierBranches = []
    forgetComputedStates()
    start = .now
    sentCount = 0
    sentFirstStep = 0
    takeTheStoreAsItIs()
    observerIDs = [
      feature.runtime.stepObservers.add(willReduce: { [weak self] in self?.willReduce() }),
      feature.runtime.stepObservers.add { [weak self] step in self?.record(step) },
    ]
    return true
  }

  func stopRecording() {
    for id in observerIDs { feature.runtime.stepObservers.remove(id) }
    observerIDs = []
    // NB: nothing to put back: viewing a step never moved the store.
    timeline = nil
    branch = nil
    earlierBranches = []
    forgetComputedStates()
    treeEncoder = TreeEncoder()
    sharedReferences = []
    sentCount = 0
    returnFreedMemoryToTheSystem()
  }

  // MARK: - Recording

  func sharedChangeCount() -> UInt64 {
    sharedReferences.reduce(0) { $0 &+ $1.changeCount }
  }

  /// Before an action: a shared value changed, or the state was replaced, since the last step
  /// (by an effect, another store, a file changed on disk), so that the next step's state can't
  /// be recomputed from the last one's.
  func willReduce() {
    if sharedChangeCount() != sharedChangesAfterLastStep
      || feature.runtime.stepObservers.stateReplacementCount != replacementsAfterLastStep
    {
      needsCheckpoint = true
    }
  }

  func record(_ reduced: ReducedStep) {
    guard var timeline else { return }
    self.timeline = nil  // NB: mutated in place, without a copy of its arrays.
    defer { self.timeline = timeline }
    guard let step = feature.project(reduced) else {
      // NB: an action outside the inspected feature changed the root: the feature's next
      // step starts from a state its own steps don't lead to.
      needsCheckpoint = true
      return
    }
    let shared = snapshot()
    var recorded = timeline.record(
      .init(
        rootAction: reduced.action, action: step.action, featureAction: step.featureAction,
        origin: step.origin, time: start.duration(to: .now), caseName: caseName(of: step.action),
        summary: Self.summary(of: step.action)),
      state: reduced.state, shared: shared, outsideChange: needsCheckpoint,
      keepingFrom: { [branch] in branch?.from ?? $0 })
    needsCheckpoint = false
    lastStates.append(.init(step: timeline.lastStep, rootState: reduced.state, shared: shared))
    if lastStates.count > Self.lastStatesKept { lastStates.removeFirst() }
    if let encoded = encodedStoreStep, !storeHad(encoded) {
      encodedStoreStep = nil
      encoderForgetsValues()
    }
    // NB: moved out of `recorded`, which would otherwise free them here if it let go last.
    var dropped: [Any] = []
    if !recorded.dropped.isEmpty {
      dropped.append(recorded.dropped)
      recorded.dropped = []
    }
    if recorded.thinned {
      dropped.append(recomputed)
      recomputed = []
    }
    if recorded.trimmed {
      let first = timeline.firstStep
      dropped.append(recomputed.filter { $0.step < first })
      dropped.append(leftLiveEnd.filter { $0.step < first })
      recomputed.removeAll { $0.step < first }
      leftLiveEnd.removeAll { $0.step < first }
    }
    if !dropped.isEmpty { letGoOffTheMainActor(consume dropped) }
    sharedChangesAfterLastStep = sharedChangeCount()
    replacementsAfterLastStep = feature.runtime.stepObservers.stateReplacementCount
    guard !flushScheduled else { return }
    flushScheduled = true
    // NB: the steps of a burst go to the pages in one message, after the send loop is done.
    Task { @MainActor [weak self] in self?.flush() }
  }

  /// The first step of the window the pages were last told of.
  var sentFirstStep = 0

  /// The first step the pages see (see ``InspectorTimeline/windowStart``).
  var windowStart: Int {
    timeline?.windowStart ?? 0
  }

  /// Whether a page may view `step`: it is in the window.
  func isViewable(_ step: Int) -> Bool {
    guard let timeline else { return false }
    return (windowStart...timeline.lastStep).contains(step)
  }

  /// Sends the pages the steps they have not seen, in order.
  func flush() {
    flushScheduled = false
    guard let timeline else { return }
    let first = windowStart
    if first != sentFirstStep {
      sentFirstStep = first
      broadcast(InspectorMessage.trimmed(firstStep: first))
    }
    guard sentCount < timeline.lastStep else { return }
    let from = max(sentCount, first) + 1
    sentCount = timeline.lastStep
    for message in stepMessages(from...timeline.lastStep, in: timeline) { broadcast(message) }
  }

  /// The pages' messages for `range`, in chunks.
  func stepMessages(_ range: ClosedRange<Int>, in timeline: InspectorTimeline<Action>)
    -> [String]
  {
    ListedStep.messages(timeline.listed(from: range.lowerBound, through: range.upperBound))
  }

  /// Tells `pages` the whole timeline: where it starts, the steps set aside, and every step.
  ///
  /// A timeline of more than one message of steps is written off the main actor, in the place
  /// of the pages' messages it was sent in: what the session sends them meanwhile (the steps
  /// the app takes, answers) follows it. The main actor only copies each step's three strings
  /// (not the step, whose actions are not Sendable: holding the timeline's array off it would
  /// make the next step recorded copy the whole array). (At 20,000 steps, writing them took
  /// the main actor 58 ms at the end of every move, and a key typed then waited as long.)
  func sendTimeline(to pages: [PageConnection], note: String?) {
    guard let timeline else { return }
    let header = InspectorMessage.timeline(
      firstStep: windowStart, stepCount: sentCount,
      branch: branch.map { ($0.from, $0.steps.count) }, kept: earlierBranches.count, note: note)
    let steps = timeline.listed(from: windowStart + 1, through: sentCount)
    guard steps.count > ListedStep.perMessage else {
      let messages = [header] + ListedStep.messages(steps)
      for page in pages {
        for message in messages { page.send(message) }
      }
      return
    }
    let holds = pages.map { ($0, $0.hold()) }
    let started = timelineWritingStarted
    Task.detached {
      await started?()
      let messages = [header] + ListedStep.messages(steps)
      // NB: filled on the main actor, where the session sends everything else to the pages.
      await MainActor.run {
        for (page, hold) in holds { page.fill(hold, with: messages) }
      }
    }
  }

  /// `action` as the pages' log shows it: its JSON, cut to 160 characters.
  static func summary(of action: Any) -> String {
    let text = InspectedValue.json(action)
    return text.count > 160 ? String(text.prefix(159)) + "…" : text
  }

  func broadcast(_ text: String) {
    for page in pages.values { page.send(text) }
  }

  // MARK: - Messages

  /// Reads a page's message, and answers it after the page's requests before it, without
  /// waiting for the answer: the socket is read meanwhile, so that a "cancel" reaches the work
  /// it cancels (see PageWork.swift).
  ///
  /// - Returns: The answer's task, which ends once the answer is sent.
  @discardableResult
  func receive(_ text: String, from page: PageConnection) async -> Task<Void, Never>? {
    let request: PageRequest
    do {
      request = try PageRequest(text)
    } catch {
      page.send(InspectorMessage.error(context: "message", message: error.message))
      return nil
    }
    let id = ObjectIdentifier(page)
    switch request.kind {
    case .cancel:
      let count = await work.cancel(for: id)
      page.send(InspectorMessage.cancelled(requests: count))
      return nil
    case .follow:
      // NB: the page asked for the live step again: the answer it waits for, if any, would
      // be of a step already behind.
      work.cancelFollow(for: id)
      leftLiveEnd = []
      // NB: the live step and the one before it are at hand (`lastStates`): a page that
      // follows costs an encoding of what changed, never a replay.
      // NB: a page that follows a state of megabytes would otherwise keep the app's main
      // actor (the encoding) and a core (the detail) busy half the time: its details come as
      // often as a share of the time affords, and the newest step is taken once it is time.
      // The answer waits apart from the page's other requests (after those sent before it),
      // and any of them cancels it.
      let before = work.lastQueued(for: id)
      let answer = Task { [weak self] in
        await before?.value
        guard let self else { return }
        let waiting = ContinuousClock.now.duration(to: nextFollowAnswer)
        if waiting > .zero { await slicing.wait(waiting) }
        guard !Task.isCancelled else { return }
        let began = ContinuousClock.now
        await sendDetail(timeline?.lastStep ?? 0, viewing: false, context: "follow", to: page)
        nextFollowAnswer = began + began.duration(to: .now) * (1 / slicing.followShare)
      }
      work.follow(for: id, answer)
      return answer
    default:
      // NB: the page asked for something else since its last "follow": that answer, if it has
      // not gone yet, would replace what the page now shows.
      work.cancelFollow(for: id)
      return await work.enqueue(for: id, cancellable: request.kind.isCancellable) {
        [weak self] in
        await self?.answer(request.kind, from: page)
      }
    }
  }

  /// Reads a page's message and answers it, as ``receive(_:from:)`` does, and returns once the
  /// answer is sent (the tests' way in).
  func handle(_ text: String, from page: PageConnection) async {
    await receive(text, from: page)?.value
  }

  func answer(_ request: PageRequest.Kind, from page: PageConnection) async {
    switch request {
    case .detail(let step):
      pageViews(step)
      await sendDetail(step, viewing: false, context: "detail", to: page)
    case .jump(let step):
      // NB: a page views a past step; the store goes on from its live state.
      pageViews(step)
      await sendDetail(step, viewing: true, context: "jump", to: page)
    case .children(let step, let path, let offset):
      await sendChildren(step, path: path, offset: offset, to: page)
    case .resume:
      leftLiveEnd = []
      page.send(InspectorMessage.live(stepCount: sentCount))
    case .continueFrom(let step):
      await continueFrom(step, page: page)
    case .undoContinue:
      await undoContinue(page: page)
    case .skip(let step, let skipped):
      await skip(step, skipped: skipped, page: page)
    case .commit:
      commit(page: page)
    case .send(let json):
      send(json, page: page)
    case .generateTest:
      await generate(page: page)
    case .follow, .cancel:
      // NB: answered as they are read (`receive`).
      break
    }
  }

  /// The values of the state's shared values now, if it holds any.
  func snapshot() -> SharedSnapshot? {
    sharedReferences.isEmpty ? nil : SharedSnapshot(of: sharedReferences)
  }
}

/// A step as the pages' log lists it (`InspectorMessage.step`), taken from the timeline so that
/// it can be written off the main actor.
struct ListedStep: Sendable {
  let index: Int
  let caseName: String
  let origin: String
  let summary: String
  let isSkipped: Bool

  /// The steps in one message. A summary is at most 160 characters, 6 bytes each once escaped
  /// at worst: a message stays under the bound (`InspectedTree.maximumMessageSize`).
  static let perMessage = 1_000

  /// The pages' messages for `steps`, ``perMessage`` steps each.
  static func messages(_ steps: [ListedStep]) -> [String] {
    stride(from: 0, to: steps.count, by: perMessage).map { start in
      InspectorMessage.steps(
        steps[start..<min(start + perMessage, steps.count)].map {
          InspectorMessage.step(
            index: $0.index, caseName: $0.caseName, origin: $0.origin, summary: $0.summary,
            skipped: $0.isSkipped)
        })
    }
  }
}
