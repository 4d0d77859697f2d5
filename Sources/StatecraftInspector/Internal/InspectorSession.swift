// Owns what the Inspector knows of the store while pages are connected: the timeline (each
// step's action, and checkpoints to recompute states from: InspectorTimeline.swift), the pages,
// what a page views (any step, without touching the store), "continue from here" and its undo
// (the only ways a page changes the store's state), and the answers to the pages' messages and
// to the export and import routes. It records only while a page is connected, or steps are set
// aside (so that a page that reloads can still undo): otherwise the store has no step observer,
// and pays nothing.
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

/// How the session reaches the inspected feature inside the store tree.
@MainActor
struct InspectedFeature<State, Action> {
  /// The feature's name, for the page's title.
  let name: String
  /// The root's state now; nil once the store is released.
  let currentRootState: () -> Any?
  /// The feature's state inside a root state.
  let featureState: (Any) -> State?
  /// The step's action as the feature sees it, with its origin for the feature, or nil when it
  /// isn't one of the feature's (an action of a parent feature outside the inspected one).
  let project: (ReducedStep) -> (action: Any, featureAction: Action?, origin: ActionOrigin)?
  /// The root state after the root's reducer runs a root action on it, without its effect.
  let reduce: (_ rootState: Any, _ rootAction: Any) -> Any?
  /// Puts the feature's part of the store tree into `state` (outside the reducer); false when
  /// it can't.
  let replaceState: (State) -> Bool
  /// Sends a feature action to the store.
  let send: (Action) -> Void
  /// The store tree's runtime, where the step observer goes.
  let runtime: StoreRuntime
}

/// How long the Inspector's work on the main actor runs before it lets the app's work run:
/// recomputing a step's state, and writing an export, go a slice at a time.
struct SliceBudget {
  /// The most actions a slice reduces, or actions it encodes.
  var maximumSteps = Int.max
  /// The longest a slice runs, about a frame's half.
  var maximumDuration = Duration.milliseconds(8)
  /// What runs between two slices: the app's work waiting on the main actor goes first.
  var pause: @MainActor () async -> Void = { await Task.yield() }
  /// The share of the time a following page's details may take: after a detail that took
  /// `t`, the next is answered no sooner than `t / followShare` after the first began.
  var followShare = 0.25
  /// Waits before the next answer to a following page (a sleep; nothing in the tests).
  var wait: @MainActor (Duration) async -> Void = { try? await Task.sleep(for: $0) }
  /// How often a page hears how far a long request has come: a request that takes less
  /// sends no progress at all.
  var progressInterval = Duration.milliseconds(100)
}

/// Tells a page how far one of its requests has come, at most every
/// `SliceBudget.progressInterval` (see InspectorMessage.swift's "progress").
@MainActor
final class ProgressReport {
  let page: PageConnection
  let context: String
  let step: Int
  let interval: Duration
  private var last = ContinuousClock.now

  init(page: PageConnection, context: String, step: Int, interval: Duration) {
    self.page = page
    self.context = context
    self.step = step
    self.interval = interval
  }

  /// `done` of `total` actions are recomputed or encoded.
  func report(done: Int, total: Int) {
    let now = ContinuousClock.now
    guard now - last >= interval else { return }
    last = now
    page.send(InspectorMessage.progress(context: context, step: step, done: done, total: total))
  }
}

/// How much of a session the timeline keeps.
struct TimelineLimits {
  /// The most steps kept; older ones are dropped a checkpoint at a time.
  var maximumSteps: Int
  /// A checkpoint (the root's state and its shared values) every this many steps, at first.
  var checkpointInterval: Int
  /// The most checkpoints kept: past it, every other one goes and the interval doubles.
  var maximumCheckpoints: Int
}

@MainActor
final class InspectorSession<State, Action> {
  let feature: InspectedFeature<State, Action>
  let limits: TimelineLimits
  var generateTest: (@MainActor (Data) throws -> String)?
  var importSession: (@MainActor (Data) async -> InspectorResponse)?
  /// How the session's long work is cut into slices.
  var slicing = SliceBudget()

  private(set) var timeline: InspectorTimeline<Action>?
  /// The steps set aside by the last "continue from here", which "undo" puts back.
  private(set) var branch: InspectorTimeline<Action>.Branch?
  /// The shared values the state holds, found when the timeline starts.
  private var sharedReferences: [any AnySharedReference] = []
  /// The sum of their change counts after the last step, and the store's count of replaced
  /// states then: a difference before the next step means its state did not come from the
  /// last step's by the reducer alone, so the next step is a checkpoint.
  private var sharedChangesAfterLastStep: UInt64 = 0
  private var replacementsAfterLastStep: UInt64 = 0
  private var needsCheckpoint = false
  /// When the timeline started.
  private var start = ContinuousClock.now
  /// The steps sent to the pages so far (the last one's number).
  private var sentCount = 0
  private var flushScheduled = false
  private var observerIDs: [UInt64] = []
  private var pages: [ObjectIdentifier: PageConnection] = [:]
  /// The last states recomputed, by step: a page that views a step asks for it and the one
  /// before it, and then often the next.
  private var recomputed: [InspectorTimeline<Action>.Checkpoint] = []
  /// The trees of the last feature states sent to the pages, by step, for the pages' requests
  /// for more of them.
  private var trees: [(step: Int, generation: Int, tree: JSONValue)] = []
  /// The states of the last two steps, as the store had them. A page that follows the live end
  /// views them, and they share the store's storage with the states it viewed before (see
  /// TreeEncoder.swift), where a state recomputed from a checkpoint shares none.
  private var lastStates: [InspectorTimeline<Action>.Checkpoint] = []

  /// The earliest the next "follow" is answered (see `SliceBudget.followShare`).
  private var nextFollowAnswer = ContinuousClock.now
  /// What each page has under way: its requests in order, and its last "follow".
  private let work = PageWork()
  /// The last answer to a "follow", cancelled or not (the tests await it).
  var lastFollow: Task<Void, Never>? { work.lastFollow }

  /// The states at hand without recomputing: the last two steps' and the last recomputed.
  private var knownStates: [InspectorTimeline<Action>.Checkpoint] {
    lastStates + recomputed
  }

  /// Encodes the states to trees, remembering the last one's values; a new one when the
  /// session stops recording (an encoding under way off the main actor keeps the old one).
  private(set) var treeEncoder = TreeEncoder()
  /// The encoding under way off the main actor, if any: encodings run one at a time.
  private var encoding: Task<JSONValue?, Never>?
  /// Whether the feature's states are encoded on the main actor: once one held a class
  /// instance or a shared value whose value was not recorded (see `encodeTree`).
  private var encodesOnMainActor = false
  /// Whether the feature's states are now encoded on the main actor (for the tests).
  var encodesStatesOnMainActor: Bool { encodesOnMainActor }
  /// Changes when a step's state may no longer be what it was: a new timeline, a continue, an
  /// undo. Work that awaited across one starts again.
  private var generation = 0

  init(feature: InspectedFeature<State, Action>, limits: TimelineLimits) {
    self.feature = feature
    self.limits = TimelineLimits(
      maximumSteps: max(limits.maximumSteps, 1),
      checkpointInterval: max(limits.checkpointInterval, 1),
      maximumCheckpoints: max(limits.maximumCheckpoints, 2))
  }

  var pageCount: Int { pages.count }

  /// Waiters for a number of pages (tests await a page's departure this way).
  private var pageCountWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

  /// Returns once `count` pages are connected.
  func waitForPageCount(_ count: Int) async {
    guard pages.count != count else { return }
    await withCheckedContinuation { pageCountWaiters.append((count, $0)) }
  }

  private func pageCountChanged() {
    let ready = pageCountWaiters.filter { $0.count == pages.count }
    pageCountWaiters.removeAll { $0.count == pages.count }
    for waiter in ready { waiter.continuation.resume() }
  }
  var isRecording: Bool { !observerIDs.isEmpty }

  /// The number of states the timeline holds (its checkpoints), for the tests of its memory.
  var keptStateCount: Int { (timeline?.checkpoints.count ?? 0) + (branch?.checkpoints.count ?? 0) }

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

  private var canExport: Bool {
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
    if pages.isEmpty && branch == nil { stopRecording() }
    pageCountChanged()
  }

  /// Closes every page and stops recording.
  func closeAll() {
    for page in pages.values { page.close() }
    pages.removeAll()
    stopRecording()
    pageCountChanged()
  }

  private func startRecording() -> Bool {
    guard let root = feature.currentRootState(), feature.featureState(root) != nil else {
      return false
    }
    sharedReferences = SharedSnapshot.references(in: root)
    timeline = InspectorTimeline(
      start: .init(step: 0, rootState: root, shared: snapshot()), limits: limits)
    branch = nil
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

  private func stopRecording() {
    for id in observerIDs { feature.runtime.stepObservers.remove(id) }
    observerIDs = []
    // NB: nothing to put back: viewing a step never moved the store.
    timeline = nil
    branch = nil
    forgetComputedStates()
    treeEncoder = TreeEncoder()
    sharedReferences = []
    sentCount = 0
    returnFreedMemoryToTheSystem()
  }

  // MARK: - Recording

  private func sharedChangeCount() -> UInt64 {
    sharedReferences.reduce(0) { $0 &+ $1.changeCount }
  }

  /// Before an action: a shared value changed, or the state was replaced, since the last step
  /// (by an effect, another store, a file changed on disk), so that the next step's state can't
  /// be recomputed from the last one's.
  private func willReduce() {
    if sharedChangeCount() != sharedChangesAfterLastStep
      || feature.runtime.stepObservers.stateReplacementCount != replacementsAfterLastStep
    {
      needsCheckpoint = true
    }
  }

  private func record(_ reduced: ReducedStep) {
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
    let recorded = timeline.record(
      .init(
        rootAction: reduced.action, action: step.action, featureAction: step.featureAction,
        origin: step.origin, time: start.duration(to: .now), caseName: caseName(of: step.action)),
      state: reduced.state, shared: shared, outsideChange: needsCheckpoint,
      keepingFrom: { [branch] in branch?.from ?? $0 })
    needsCheckpoint = false
    lastStates.append(.init(step: timeline.lastStep, rootState: reduced.state, shared: shared))
    if lastStates.count > 2 { lastStates.removeFirst() }
    if recorded.thinned { recomputed = [] }
    if recorded.trimmed { recomputed.removeAll { $0.step < timeline.firstStep } }
    sharedChangesAfterLastStep = sharedChangeCount()
    replacementsAfterLastStep = feature.runtime.stepObservers.stateReplacementCount
    guard !flushScheduled else { return }
    flushScheduled = true
    // NB: the steps of a burst go to the pages in one message, after the send loop is done.
    Task { @MainActor [weak self] in self?.flush() }
  }

  /// The first step of the window the pages were last told of.
  private var sentFirstStep = 0

  /// The first step the pages see (see ``InspectorTimeline/windowStart(maximumSteps:)``).
  private var windowStart: Int {
    timeline?.windowStart(maximumSteps: limits.maximumSteps) ?? 0
  }

  /// Whether a page may view `step`: it is in the window.
  private func isViewable(_ step: Int) -> Bool {
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
  private func stepMessages(_ range: ClosedRange<Int>, in timeline: InspectorTimeline<Action>)
    -> [String]
  {
    // NB: a summary is at most 160 characters, 6 bytes each once escaped at worst: a chunk
    // stays under the bound of a message (`InspectedTree.maximumMessageSize`).
    let chunk = 1_000
    var messages: [String] = []
    var start = range.lowerBound
    while start <= range.upperBound {
      let end = min(start + chunk - 1, range.upperBound)
      messages.append(InspectorMessage.steps((start...end).map { summary($0, in: timeline) }))
      start = end + 1
    }
    return messages
  }

  /// Tells `pages` the whole timeline: where it starts, the steps set aside, and every step.
  private func sendTimeline(to pages: [PageConnection], note: String?) {
    guard let timeline else { return }
    var messages = [
      InspectorMessage.timeline(
        firstStep: windowStart, stepCount: sentCount,
        branch: branch.map { ($0.from, $0.steps.count) }, note: note)
    ]
    if sentCount > windowStart {
      messages += stepMessages((windowStart + 1)...sentCount, in: timeline)
    }
    for page in pages {
      for message in messages { page.send(message) }
    }
  }

  private func summary(_ index: Int, in timeline: InspectorTimeline<Action>) -> String {
    guard let step = timeline.step(index) else { return "null" }
    var text = InspectedValue.json(step.action)
    if text.count > 160 { text = String(text.prefix(159)) + "…" }
    return InspectorMessage.step(
      index: index, caseName: step.caseName, origin: step.origin.rawValue, summary: text,
      skipped: step.isSkipped)
  }

  private func broadcast(_ text: String) {
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

  private func answer(_ request: PageRequest.Kind, from page: PageConnection) async {
    switch request {
    case .detail(let step):
      await sendDetail(step, viewing: false, context: "detail", to: page)
    case .jump(let step):
      // NB: a page views a past step; the store goes on from its live state.
      await sendDetail(step, viewing: true, context: "jump", to: page)
    case .children(let step, let path, let offset):
      await sendChildren(step, path: path, offset: offset, to: page)
    case .resume:
      page.send(InspectorMessage.live(stepCount: sentCount))
    case .continueFrom(let step):
      continueFrom(step, page: page)
    case .undoContinue:
      undoContinue(page: page)
    case .skip(let step, let skipped):
      skip(step, skipped: skipped, page: page)
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
  private func snapshot() -> SharedSnapshot? {
    sharedReferences.isEmpty ? nil : SharedSnapshot(of: sharedReferences)
  }

  // MARK: - States

  /// The root's state at `step`, and its shared values then: a checkpoint's, or recomputed
  /// from the checkpoint before it by the reducer (without effects, and with shared values
  /// written to copies: see SharedReplay.swift).
  private func rootState(at step: Int) -> (rootState: Any, shared: SharedSnapshot?)? {
    guard let timeline, timeline.contains(step) else { return nil }
    let from = timeline.start(for: step, known: knownStates)
    guard from.step < step else { return (from.rootState, from.shared) }
    guard let (state, _) = timeline.recompute(step, from: from, feature.reduce) else { return nil }
    recomputed.append(state)
    if recomputed.count > 4 { recomputed.removeFirst() }
    return (state.rootState, state.shared)
  }

  /// The feature's state at `step` (0: where the session started), recomputed if need be.
  func state(at step: Int) -> State? {
    rootState(at: step).flatMap { feature.featureState($0.rootState) }
  }

  private func noSuchStep(_ step: Int, context: String) -> String {
    guard let timeline else {
      return InspectorMessage.error(context: context, message: "No session is being recorded.")
    }
    let dropped =
      step < windowStart && step >= 0
      ? " Older steps were dropped: the timeline keeps at most \(limits.maximumSteps) steps." : ""
    return InspectorMessage.error(
      context: context,
      message:
        "There is no step \(step): the timeline has steps \(windowStart) to \(timeline.lastStep).\(dropped)"
    )
  }

  /// Sends `page` the detail of `step`: its action, its state cut to a budget, and the paths
  /// that changed from the step before, with a diff of those paths alone (see
  /// InspectedTree.swift). The states are recomputed in slices, encoded on the main actor, and
  /// compared and cut off it.
  private func sendDetail(
    _ step: Int, viewing: Bool, context: String, to page: PageConnection
  ) async {
    guard let timeline, isViewable(step) else {
      page.send(noSuchStep(step, context: context))
      return
    }
    let hasPrevious = step > timeline.firstStep
    let progress = ProgressReport(
      page: page, context: context, step: step, interval: slicing.progressInterval)
    while true {
      let generation = self.generation
      let previous = hasPrevious ? await tree(at: step - 1, progress: progress) : nil
      let state = await tree(at: step, progress: progress)
      // NB: the page cancelled it: no answer.
      guard !Task.isCancelled else { return }
      guard let state, generation == self.generation else {
        if generation != self.generation, self.timeline != nil, isViewable(step) { continue }
        page.send(noSuchStep(step, context: context))
        return
      }
      guard let timeline = self.timeline else { return }
      // NB: a step is recomputed unless it is a checkpoint or one of the last two steps, whose
      // states the store had.
      let fields = InspectedTree.DetailFields(
        step: step, viewing: viewing, liveStep: timeline.lastStep,
        recomputed: timeline.checkpoint(atOrBefore: step).step != step
          && !lastStates.contains { $0.step == step },
        skipped: timeline.step(step)?.isSkipped ?? false)
      let action = timeline.step(step).map { InspectedValue.jsonData($0.action) }
      let message = await Task.detached {
        InspectedTree.detail(
          fields, action: action.flatMap { JSONValue(parsing: $0) }, state: state,
          previous: previous)
      }.value
      // NB: a "follow" the page's next request cancelled: the page shows something else now.
      guard !Task.isCancelled else { return }
      page.send(message)
      return
    }
  }

  /// Sends `page` a page of the children of the container at `path` in the state of `step`.
  private func sendChildren(
    _ step: Int, path: JSONPath, offset: Int, to page: PageConnection
  ) async {
    let progress = ProgressReport(
      page: page, context: "children", step: step, interval: slicing.progressInterval)
    let state = isViewable(step) ? await tree(at: step, progress: progress) : nil
    guard !Task.isCancelled else { return }
    guard let state else {
      page.send(noSuchStep(step, context: "children"))
      return
    }
    let message = await Task.detached {
      InspectedTree.children(step: step, path: path, offset: offset, in: state)
    }.value
    page.send(
      message
        ?? InspectorMessage.error(
          context: "children",
          message: "The state at step \(step) has no object or array at \(path.text)."))
  }

  /// The feature's state at `step` as a tree: recomputed in slices, and encoded on the main
  /// actor at the cost of what changed since the last state encoded. Nil when the timeline has
  /// no such step.
  private func tree(at step: Int, progress: ProgressReport? = nil) async -> JSONValue? {
    while true {
      let generation = self.generation
      guard let timeline, timeline.contains(step) else { return nil }
      if let hit = trees.first(where: { $0.step == step && $0.generation == generation }) {
        return hit.tree
      }
      let root = await rootState(at: step, in: timeline, progress: progress)
      guard !Task.isCancelled else { return nil }
      guard generation == self.generation else { continue }
      guard let root, let state = feature.featureState(root.rootState) else { return nil }
      let tree = await encodeTree(of: state, reading: root.shared)
      guard generation == self.generation else { continue }
      trees.append((step, generation, tree))
      if trees.count > 4 { trees.removeFirst() }
      return tree
    }
  }

  /// `state` as a tree, at the cost of what changed since the last state encoded (see
  /// TreeEncoder.swift). Off the main actor, so that a key typed meanwhile reaches the app at
  /// once: a state is a value, and the shared values it holds are read as they were recorded.
  /// On the main actor once a state held anything else (a class instance, a shared value not
  /// recorded), which the app may change meanwhile. One encoding at a time.
  private func encodeTree(of state: State, reading shared: SharedSnapshot?) async -> JSONValue {
    if !encodesOnMainActor {
      let encoder = treeEncoder
      let value = StateValue(state: state)
      let previous = encoding
      let task = Task.detached {
        // NB: each encoding waits for the one started before it.
        _ = await previous?.value
        return encoder.treeOffMainActor(of: value.state, reading: shared)
      }
      encoding = task
      let tree = await task.value
      if encoding == task { encoding = nil }
      if let tree { return tree }
      encodesOnMainActor = true
    }
    // NB: the encodings under way off the main actor end first. Each one awaited is cleared
    // here: awaiting a task that has ended does not suspend, so waiting for its owner to clear
    // it would never let the owner run.
    while let running = encoding {
      _ = await running.value
      if encoding == running { encoding = nil }
    }
    return shared.whileReading { treeEncoder.tree(of: state) }
  }

  /// The root's state at `step` of `timeline`, recomputed as ``rootState(at:)`` does, but a
  /// slice at a time (``slicing``), so that the app's work runs between two slices.
  ///
  /// Nil, too, once the task is cancelled: it stops at the end of a slice.
  private func rootState(
    at step: Int, in timeline: InspectorTimeline<Action>, progress: ProgressReport? = nil
  ) async -> (rootState: Any, shared: SharedSnapshot?)? {
    guard timeline.contains(step) else { return nil }
    let generation = self.generation
    let from = timeline.start(for: step, known: knownStates)
    guard from.step < step else { return (from.rootState, from.shared) }
    let hasShared = from.shared != nil
    var state = from.rootState
    var shared = from.shared
    var next = from.step + 1
    while next <= step {
      let deadline = ContinuousClock.now + slicing.maximumDuration
      let last = next + min(step - next, max(slicing.maximumSteps, 1) - 1)
      // NB: each slice replays with the shared values the last one ended with (see
      // SharedReplay.swift): the copies are never held across the pause.
      let replayed = SharedReplay.isolating(from: shared) { () -> Any? in
        var current = state
        while next <= last {
          guard let reduced = timeline.replay(next, on: current, feature.reduce) else {
            return nil
          }
          current = reduced
          next += 1
          if ContinuousClock.now >= deadline { break }
        }
        return current
      }
      guard let result = replayed.result else { return nil }
      state = result
      shared = hasShared ? replayed.shared : nil
      if next <= step {
        progress?.report(done: next - 1 - from.step, total: step - from.step)
        await slicing.pause()
        guard !Task.isCancelled else { return nil }
      }
    }
    if generation == self.generation {
      recomputed.append(.init(step: step, rootState: state, shared: shared))
      if recomputed.count > 4 { recomputed.removeFirst() }
    }
    return (state, shared)
  }

  // MARK: - Continue from here

  /// Puts the store at `step`, setting aside the steps after it, which `undoContinue` puts
  /// back: the one way a page changes the store's state, and only when asked.
  private func continueFrom(_ step: Int, page: PageConnection) {
    guard var timeline = self.timeline, isViewable(step) else {
      page.send(noSuchStep(step, context: "continue"))
      return
    }
    flush()
    guard step < timeline.lastStep else {
      page.send(
        InspectorMessage.error(
          context: "continue",
          message: "Step \(step) is the live state: there is nothing to set aside."))
      return
    }
    guard let target = rootState(at: step) else {
      page.send(
        InspectorMessage.error(
          context: "continue", message: "The state at step \(step) could not be recomputed."))
      return
    }
    let liveStep = timeline.lastStep
    let aside = timeline.cut(after: step)
    guard moveStore(to: target, in: &timeline) else {
      timeline.restore(aside)
      page.send(
        InspectorMessage.error(
          context: "continue", message: "The store could not be put at step \(step)."))
      return
    }
    branch = aside
    self.timeline = timeline
    sendTimeline(
      to: Array(pages.values),
      note: """
        Continued from step \(step): steps \(step + 1) to \(liveStep) were set aside. \
        Undo puts them back.
        """)
  }

  /// Swaps the steps set aside by the last "continue from here" with the ones made since.
  private func undoContinue(page: PageConnection) {
    guard var timeline = self.timeline, let aside = branch else {
      page.send(
        InspectorMessage.error(
          context: "undoContinue", message: "There is no \"continue from here\" to undo."))
      return
    }
    flush()
    let madeSince = timeline.cut(after: aside.from)
    timeline.restore(aside)
    self.timeline = timeline
    forgetComputedStates()
    guard let target = rootState(at: timeline.lastStep), moveStore(to: target, in: &timeline)
    else {
      _ = timeline.cut(after: aside.from)
      timeline.restore(madeSince)
      self.timeline = timeline
      page.send(
        InspectorMessage.error(
          context: "undoContinue", message: "The store could not be put back."))
      return
    }
    branch = madeSince.steps.isEmpty ? nil : madeSince
    self.timeline = timeline
    sendTimeline(
      to: Array(pages.values),
      note: """
        Undone: steps \(aside.from + 1) to \(timeline.lastStep) are back, and the store is at \
        step \(timeline.lastStep). \(madeSince.steps.isEmpty ? "No step was made since." : "The \(madeSince.steps.count) steps made since were set aside.")
        """)
  }

  /// Leaves step `step`'s action out of the session, or puts it back (Redux DevTools' "skip"):
  /// the steps after it are recomputed, at once (the user asked for it), and the store is put
  /// at the result, with effects left alone. The step stays in the timeline, marked skipped;
  /// its state is the one before it. A state a page put the store at (a continue, an undo, a
  /// skip) is recomputed through like any other. Refused for a step at or before a state made
  /// outside the reducer (the steps after such a state don't follow from the ones before it),
  /// and for a step at or before the one the steps set aside by "continue from here" go back
  /// to.
  private func skip(_ step: Int, skipped: Bool, page: PageConnection) {
    let context = skipped ? "skip" : "unskip"
    func refuse(_ message: String) {
      page.send(InspectorMessage.error(context: context, message: message))
    }
    guard var timeline = self.timeline, isViewable(step) else {
      page.send(noSuchStep(step, context: context))
      return
    }
    flush()
    guard let current = timeline.step(step) else {
      return refuse("Step \(step) is where the timeline starts: it has no action to skip.")
    }
    guard current.isSkipped != skipped else {
      return refuse("Step \(step) is \(skipped ? "already skipped" : "not skipped").")
    }
    if let branch, step <= branch.from {
      return refuse(
        """
        The steps after \(branch.from) are set aside by "continue from here", and go back to \
        the state at step \(branch.from): undo the continue first, or skip a later step.
        """)
    }
    if let made = timeline.checkpoints.first(where: {
      $0.isPinned && !$0.isMove && $0.step >= step
    }) {
      return refuse(
        """
        Step \(step) can't be \(skipped ? "skipped" : "put back"): the state before step \
        \(made.step) was changed outside the reducer (a shared value written, a state replaced), \
        so the steps from there don't follow from the ones before.
        """)
    }
    let before = timeline
    timeline.setSkipped(step, skipped)
    let from = timeline.checkpoint(atOrBefore: step - 1)
    let last = timeline.lastStep
    // NB: the checkpoints after the step held states with its action (or without it): they
    // are made again on the way, where they were (with shared values, only the last is).
    let remade = Set(timeline.checkpoints.map(\.step).filter { $0 > from.step && $0 < last })
    guard
      let result = timeline.recompute(
        last, from: from, keeping: from.shared == nil ? remade : [], feature.reduce)
    else {
      return refuse("The steps after \(step) could not be recomputed.")
    }
    timeline.dropCheckpoints(after: from.step)
    for checkpoint in result.kept { timeline.setCheckpoint(checkpoint) }
    let target = (result.state.rootState, result.state.shared)
    guard moveStore(to: target, in: &timeline, pinned: false) else {
      self.timeline = before
      return refuse("The store could not be put at the state without step \(step).")
    }
    self.timeline = timeline
    sendTimeline(
      to: Array(pages.values),
      note: skipped
        ? """
        Skipped step \(step) (\(current.caseName)): the steps after it were recomputed without its \
        action, and the app is at the result. Unskip puts it back.
        """
        : """
        Step \(step) (\(current.caseName)) is back: the steps after it were recomputed with its \
        action, and the app is at the result.
        """)
  }

  /// Starts the timeline at the live state, dropping the steps before it (Redux DevTools'
  /// "commit"): the app's state doesn't change, and "continue from here" at the new first step
  /// goes back to it (a revert). Refused while steps are set aside: committing would drop them.
  private func commit(page: PageConnection) {
    guard var timeline = self.timeline else { return }
    guard branch == nil else {
      page.send(
        InspectorMessage.error(
          context: "commit",
          message: """
            Steps are set aside by "continue from here": undo the continue, or go on from \
            here and quit to keep them beside the data, before committing.
            """))
      return
    }
    flush()
    guard let live = feature.currentRootState() else { return }
    let dropped = timeline.lastStep - timeline.firstStep
    timeline.commit(.init(step: timeline.lastStep, rootState: live, shared: snapshot()))
    self.timeline = timeline
    forgetComputedStates()
    takeTheStoreAsItIs()
    sendTimeline(
      to: Array(pages.values),
      note: """
        Committed: the timeline starts at step \(timeline.firstStep), the live state; the \
        \(dropped) steps before it were dropped. Revert goes back to this state.
        """)
  }

  /// Puts the store, and its shared values, at `target`, the state at the timeline's last step,
  /// which becomes a checkpoint of the store's state.
  ///
  /// The checkpoint is pinned unless `pinned` is false: a state the replay of the timeline's
  /// own steps led to (a skip) can be recomputed again.
  private func moveStore(
    to target: (rootState: Any, shared: SharedSnapshot?),
    in timeline: inout InspectorTimeline<Action>, pinned: Bool = true
  ) -> Bool {
    guard let state = feature.featureState(target.rootState) else { return false }
    // NB: the shared values the state holds go back to their values at that step too (a
    // persisted one is saved): the user chose this state.
    target.shared?.restore()
    guard feature.replaceState(state), let live = feature.currentRootState() else { return false }
    timeline.setCheckpoint(
      .init(
        step: timeline.lastStep, rootState: live, shared: snapshot(), isPinned: pinned,
        isMove: true))
    forgetComputedStates()
    sentCount = timeline.lastStep
    takeTheStoreAsItIs()
    return true
  }

  /// Forgets the states recomputed and their trees, and starts over the work that awaited
  /// across this: the timeline's steps may no longer be what they were.
  private func forgetComputedStates() {
    recomputed = []
    lastStates = []
    trees = []
    generation += 1
  }

  /// Takes the store's state and shared values as they are now as the last step's: a
  /// difference before the next step then comes from outside the reducer (a checkpoint).
  private func takeTheStoreAsItIs() {
    needsCheckpoint = false
    sharedChangesAfterLastStep = sharedChangeCount()
    replacementsAfterLastStep = feature.runtime.stepObservers.stateReplacementCount
  }

  private func send(_ json: Data, page: PageConnection) {
    guard let type = Action.self as? any Decodable.Type else {
      page.send(
        InspectorMessage.error(
          context: "send",
          message:
            "\(Action.self) is not Decodable, so an action can't be sent from the page. Make it Codable to send actions as JSON."
        ))
      return
    }
    let action: Action
    do {
      action = try decodeAction(type, from: json)
    } catch {
      page.send(
        InspectorMessage.error(
          context: "send", message: "The action does not decode: \(describeDecoding(error))"))
      return
    }
    feature.send(action)
    page.send(InspectorMessage.sent)
  }

  private func decodeAction(_ type: any Decodable.Type, from json: Data) throws -> Action {
    func decode<T: Decodable>(_ type: T.Type) throws -> Action {
      let value = try JSONDecoder().decode(T.self, from: json)
      return value as! Action
    }
    return try decode(type)
  }

  private func generate(page: PageConnection) async {
    guard let generateTest else {
      page.send(
        InspectorMessage.error(
          context: "generateTest", message: "This inspector was started without a test generator."))
      return
    }
    do {
      let data = try await exportData(
        progress: ProgressReport(
          page: page, context: "generateTest", step: timeline?.lastStep ?? 0,
          interval: slicing.progressInterval))
      let source = try generateTest(data)
      let message = InspectorMessage.generatedTest(source)
      guard message.utf8.count <= InspectedTree.maximumMessageSize else {
        page.send(
          InspectorMessage.error(
            context: "generateTest",
            message: """
              The generated test is \(source.utf8.count) bytes, more than a message to the page \
              holds (\(InspectedTree.maximumMessageSize) bytes). Export the session, and generate \
              the test from the file.
              """))
        return
      }
      page.send(message)
    } catch {
      // NB: the page cancelled it: no answer.
      if case ExportError.cancelled = error { return }
      page.send(InspectorMessage.error(context: "generateTest", message: "\(error)"))
    }
  }

  // MARK: - Export

  /// The session as the JSON that `Recording(jsonData:)` reads, with each step's origin and
  /// time, from the first step the timeline keeps: every action, and the states that can't be
  /// recomputed from them (the ones the store was put in from outside the reducer) and the last
  /// one, never every step's. The actions are encoded a slice at a time (``slicing``).
  func exportData(progress: ProgressReport? = nil) async throws(ExportError) -> Data {
    guard let timeline else { throw .noSession }
    guard canExport else { throw .notEncodable("\(State.self) or \(Action.self)") }
    var writer = ExportWriter(timeline: timeline)
    while !writer.isDone {
      try writer.encodeActions(slice: slicing, json: exportJSON)
      if !writer.isDone {
        progress?.report(done: writer.encoded, total: timeline.steps.count)
        await slicing.pause()
        guard !Task.isCancelled else { throw .cancelled }
      }
    }
    let last = await rootState(at: timeline.lastStep, in: timeline, progress: progress)
    guard !Task.isCancelled else { throw .cancelled }
    guard let last else { throw .encodingFailed("the last step could not be recomputed") }
    return try writer.finish(last: last, json: exportJSON, state: feature.featureState)
  }

  /// The session as "undo continue" would make it, in the format of ``exportData()``: the
  /// steps up to the last "continue from here", then the ones it set aside. Nil when no step is
  /// set aside.
  func setAsideData() throws(ExportError) -> Data? {
    guard var timeline, let branch else { return nil }
    _ = timeline.cut(after: branch.from)
    timeline.restore(branch)
    guard canExport else { throw .notEncodable("\(State.self) or \(Action.self)") }
    var writer = ExportWriter(timeline: timeline)
    try writer.encodeActions(
      slice: SliceBudget(maximumDuration: .seconds(1_000_000)), json: exportJSON)
    // NB: the last state is recomputed at once: at quit, there is no app's work to run first.
    let from = timeline.checkpoint(atOrBefore: timeline.lastStep)
    guard let (last, _) = timeline.recompute(timeline.lastStep, from: from, feature.reduce) else {
      throw .encodingFailed("the last step could not be recomputed")
    }
    return try writer.finish(
      last: (last.rootState, last.shared), json: exportJSON, state: feature.featureState)
  }

  private let exportEncoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return encoder
  }()

  private func exportJSON(_ value: Any) throws(ExportError) -> String {
    guard let value = value as? any Encodable else { throw .notEncodable("\(type(of: value))") }
    do {
      return String(decoding: try exportEncoder.encode(AnyEncodable(value: value)), as: UTF8.self)
    } catch {
      throw .encodingFailed(describeDecoding(error))
    }
  }

  func exportResponse() async -> InspectorResponse {
    do {
      return .json(.ok, try await exportData())
    } catch {
      return .text(.conflict, error.description)
    }
  }
}

/// Writes a timeline as a recording: its actions a slice at a time, then its states that can't
/// be recomputed (its first, the pinned checkpoints) and its last.
@MainActor
private struct ExportWriter<Action> {
  let timeline: InspectorTimeline<Action>
  private var next: Int
  private var actions: [String] = []
  private var origins: [String] = []
  private var times: [String] = []

  init(timeline: InspectorTimeline<Action>) {
    self.timeline = timeline
    next = timeline.firstStep + 1
  }

  var isDone: Bool { next > timeline.lastStep }
  /// The number of actions encoded so far.
  var encoded: Int { next - timeline.firstStep - 1 }

  mutating func encodeActions(
    slice: SliceBudget, json: (Any) throws(ExportError) -> String
  ) throws(ExportError) {
    let deadline = ContinuousClock.now + slice.maximumDuration
    var count = 0
    while next <= timeline.lastStep {
      guard let step = timeline.step(next) else { break }
      // NB: a recording holds the actions that made the session: a skipped one did not.
      if step.isSkipped {
        next += 1
        continue
      }
      guard let featureAction = step.featureAction else {
        throw .notAnAction(step: next, caseName: step.caseName)
      }
      actions.append(try json(featureAction))
      origins.append(InspectorMessage.quoted(step.origin.rawValue))
      times.append(String(microseconds(step.time)))
      next += 1
      count += 1
      if count >= slice.maximumSteps || ContinuousClock.now >= deadline { break }
    }
  }

  func finish<State>(
    last: (rootState: Any, shared: SharedSnapshot?),
    json: (Any) throws(ExportError) -> String, state: (Any) -> State?
  ) throws(ExportError) -> Data {
    func stateJSON(_ rootState: Any, _ shared: SharedSnapshot?) throws(ExportError) -> String {
      guard let state = state(rootState) else { throw .notEncodable("\(State.self)") }
      guard let shared else { return try json(state) }
      var result: Result<String, ExportError>?
      shared.whileReading {
        do throws(ExportError) { result = .success(try json(state)) } catch {
          result = .failure(error)
        }
      }
      return try result!.get()
    }
    let first = timeline.checkpoint(atOrBefore: timeline.firstStep)
    let initial = try stateJSON(first.rootState, first.shared)
    var checkpoints: [String] = []
    for checkpoint in timeline.checkpoints
    where checkpoint.isPinned && checkpoint.step > timeline.firstStep
      && checkpoint.step < timeline.lastStep
    {
      let state = try stateJSON(checkpoint.rootState, checkpoint.shared)
      checkpoints.append(
        #"{"state":\#(state),"step":\#(timeline.recordedIndex(of: checkpoint.step))}"#)
    }
    let stepCount = timeline.recordedIndex(of: timeline.lastStep)
    if stepCount > 0 {
      let state = try stateJSON(last.rootState, last.shared)
      checkpoints.append(#"{"state":\#(state),"step":\#(stepCount)}"#)
    }
    let text =
      #"{"actions":[\#(actions.joined(separator: ","))],"#
      + #""checkpoints":[\#(checkpoints.joined(separator: ","))],"#
      + #""formatVersion":\#(Recording<Int, Action>.formatVersion),"#
      + #""initialState":\#(initial),"origins":[\#(origins.joined(separator: ","))],"#
      + #""stateInterval":\#(max(stepCount, 1)),"times":[\#(times.joined(separator: ","))]}"#
    return Data(text.utf8)
  }
}

/// Why a session could not be exported.
enum ExportError: Error, CustomStringConvertible {
  case noSession
  case notEncodable(String)
  case notAnAction(step: Int, caseName: String)
  case encodingFailed(String)
  /// The page that asked for it cancelled it.
  case cancelled

  var description: String {
    switch self {
    case .cancelled:
      "The export was cancelled."
    case .noSession:
      "There is no session to export: the inspector records while a page is connected."
    case .notEncodable(let type):
      "The session can't be exported: \(type) is not Encodable. Make it Codable to export sessions."
    case .notAnAction(let step, let caseName):
      """
      The session can't be exported as a recording: step \(step) (\(caseName)) is an event of \
      the store's idiom, not one of the feature's actions, and a recording holds actions only.
      """
    case .encodingFailed(let reason):
      "The session could not be encoded as JSON: \(reason)"
    }
  }
}

/// A feature's state, handed to an encoding off the main actor.
///
/// NB: `@unchecked Sendable`: a state is a value, read and never written there; what it reaches
/// through a reference is read only when it is a shared value read from a snapshot (the
/// encoding stops at anything else: `TreeEncoder.treeOffMainActor(of:reading:)`).
private struct StateValue<State>: @unchecked Sendable {
  let state: State
}
