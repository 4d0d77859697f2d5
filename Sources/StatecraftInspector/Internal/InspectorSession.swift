// Owns what the Inspector knows of the store while pages are connected: the timeline (the state
// the session started from, and each step's action, origin and state), the pages, time travel
// (a jump, and the way back to the live state), and the answers to the pages' messages and to
// the export and import routes. It records only while a page is connected: with none, the store
// has no step observer, and pays nothing.
import CustomDump
import Foundation
import Statecraft

/// How the session reaches the inspected feature inside the store tree.
@MainActor
struct InspectedFeature<State, Action> {
  /// The feature's name, for the page's title.
  let name: String
  /// The feature's state now; nil once the store is released.
  let currentState: () -> State?
  /// The step as the feature sees it, with its origin for the feature, or nil when it isn't one
  /// of the feature's (an action of a parent feature outside the inspected one).
  let project:
    (ReducedStep) -> (action: Any, featureAction: Action?, state: State, origin: ActionOrigin)?
  /// Puts the store tree into `state` (outside the reducer); false when it can't.
  let replaceState: (State) -> Bool
  /// Sends a feature action to the store.
  let send: (Action) -> Void
  /// The store tree's runtime, where the step observer goes.
  let runtime: StoreRuntime
}

/// One step of the timeline.
struct InspectedStep<State, Action> {
  /// The action as the root reduced it, or as the inspected feature has it.
  let action: Any
  /// The feature's action; nil for an idiom's own event (a reactor's mutation).
  let featureAction: Action?
  let origin: ActionOrigin
  /// When the action was reduced, since the timeline started (a generated test advances its
  /// clock by it).
  let time: Duration
  /// The state after the action.
  let state: State
  /// The values the shared values of `state` had after the action (a shared value is a
  /// reference: `state` reads it as it is now).
  let shared: SharedSnapshot?
  let caseName: String
}

@MainActor
final class InspectorSession<State, Action> {
  let feature: InspectedFeature<State, Action>
  var generateTest: (@MainActor (Data) throws -> String)?
  var importSession: (@MainActor (Data) -> InspectorResponse)?

  /// The state the timeline starts from (step 0), while a page is connected.
  private(set) var initialState: State?
  private(set) var steps: [InspectedStep<State, Action>] = []
  /// The shared values the state holds, found when the timeline starts, and their values then.
  private var sharedReferences: [any AnySharedReference] = []
  private var initialShared: SharedSnapshot?
  /// When the timeline started.
  private var start = ContinuousClock.now
  /// The steps sent to the pages so far.
  private var sentCount = 0
  private var flushScheduled = false
  private var observerID: UInt64?
  private var pages: [ObjectIdentifier: PageConnection] = [:]
  /// The step the store was put at by a jump, while it is away from its live state.
  private(set) var travelledTo: Int?

  init(feature: InspectedFeature<State, Action>) {
    self.feature = feature
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
  var isRecording: Bool { observerID != nil }

  /// What the page may offer.
  var capabilities: [String: Bool] {
    [
      "send": Action.self is any Decodable.Type,
      "export": canExport,
      "import": importSession != nil,
      "generateTest": generateTest != nil && canExport,
    ]
  }

  private var canExport: Bool {
    State.self is any Encodable.Type && Action.self is any Encodable.Type
  }

  // MARK: - Pages

  /// Starts recording when it is the first page; sends the page what happened so far; reads its
  /// messages until it disconnects.
  func connect(_ page: PageConnection) {
    if pages.isEmpty {
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
    let chunk = 2_000
    var start = 1
    while start <= sentCount {
      let end = min(start + chunk - 1, sentCount)
      page.send(InspectorMessage.steps((start...end).map(summary)))
      start = end + 1
    }
    Task { @MainActor [weak self] in
      for await message in page.messages {
        guard let self else { break }
        if case .text(let text) = message { self.handle(text, from: page) }
      }
      self?.disconnect(page)
    }
  }

  func disconnect(_ page: PageConnection) {
    guard pages.removeValue(forKey: ObjectIdentifier(page)) != nil else { return }
    if pages.isEmpty { stopRecording() }
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
    guard let state = feature.currentState() else { return false }
    initialState = state
    sharedReferences = SharedSnapshot.references(in: state)
    initialShared = snapshot()
    start = .now
    steps = []
    sentCount = 0
    travelledTo = nil
    observerID = feature.runtime.addStepObserver { [weak self] step in self?.record(step) }
    return true
  }

  private func stopRecording() {
    if let observerID { feature.runtime.removeStepObserver(observerID) }
    observerID = nil
    // NB: a store left at a past step goes back to its live state with the last page.
    if travelledTo != nil, let live = steps.last?.state ?? initialState {
      shared(at: steps.count)?.restore()
      _ = feature.replaceState(live)
    }
    travelledTo = nil
    initialState = nil
    sharedReferences = []
    initialShared = nil
    steps = []
    sentCount = 0
  }

  // MARK: - Recording

  private func record(_ reduced: ReducedStep) {
    guard let step = feature.project(reduced) else { return }
    steps.append(
      InspectedStep(
        action: step.action, featureAction: step.featureAction, origin: step.origin,
        time: start.duration(to: .now), state: step.state, shared: snapshot(),
        caseName: caseName(of: step.action)))
    guard !flushScheduled else { return }
    flushScheduled = true
    // NB: the steps of a burst go to the pages in one message, after the send loop is done.
    Task { @MainActor [weak self] in self?.flush() }
  }

  /// Sends the pages the steps they have not seen, in order.
  func flush() {
    flushScheduled = false
    guard sentCount < steps.count else { return }
    let range = (sentCount + 1)...steps.count
    sentCount = steps.count
    let chunk = 2_000
    var start = range.lowerBound
    while start <= range.upperBound {
      let end = min(start + chunk - 1, range.upperBound)
      broadcast(InspectorMessage.steps((start...end).map(summary)))
      start = end + 1
    }
  }

  private func summary(_ index: Int) -> String {
    let step = steps[index - 1]
    var text = InspectedValue.json(step.action)
    if text.count > 160 { text = String(text.prefix(159)) + "…" }
    return InspectorMessage.step(
      index: index, caseName: step.caseName, origin: step.origin.rawValue, summary: text)
  }

  private func broadcast(_ text: String) {
    for page in pages.values { page.send(text) }
  }

  // MARK: - Messages

  func handle(_ text: String, from page: PageConnection) {
    let request: PageRequest
    do {
      request = try PageRequest(text)
    } catch {
      page.send(InspectorMessage.error(context: "message", message: error.message))
      return
    }
    switch request.kind {
    case .detail(let step):
      guard let detail = detail(step, jumped: false, context: "detail", page: page) else { return }
      page.send(detail)
    case .jump(let step):
      jump(to: step, page: page)
    case .resume:
      resume()
    case .send(let json):
      send(json, page: page)
    case .generateTest:
      generate(page: page)
    }
  }

  /// The values of the state's shared values now, if it holds any.
  private func snapshot() -> SharedSnapshot? {
    sharedReferences.isEmpty ? nil : SharedSnapshot(of: sharedReferences)
  }

  /// The values the state's shared values had at `step`, if it holds any.
  private func shared(at step: Int) -> SharedSnapshot? {
    if step == 0 { return initialShared }
    guard steps.indices.contains(step - 1) else { return nil }
    return steps[step - 1].shared
  }

  /// Runs `body` with the state's shared values read as they were at `step`.
  private func reading<R>(at step: Int, _ body: () throws -> R) rethrows -> R {
    guard let shared = shared(at: step) else { return try body() }
    return try shared.whileReading(body)
  }

  /// The state at `step` (0: where the timeline starts).
  func state(at step: Int) -> State? {
    if step == 0 { return initialState }
    guard steps.indices.contains(step - 1) else { return nil }
    return steps[step - 1].state
  }

  private func detail(_ step: Int, jumped: Bool, context: String, page: PageConnection)
    -> String?
  {
    guard let state = state(at: step) else {
      page.send(
        InspectorMessage.error(
          context: context,
          message: "There is no step \(step): the timeline has steps 0 to \(steps.count)."))
      return nil
    }
    var diff: String?
    if step > 0, let previous = self.state(at: step - 1) {
      if sharedReferences.isEmpty {
        diff = CustomDump.diff(previous, state) ?? "(no change)"
      } else {
        // NB: both states hold the same shared references: each is dumped with the values they
        // had at its step, and the dumps are compared line by line.
        var old = ""
        reading(at: step - 1) { _ = customDump(previous, to: &old) }
        var new = ""
        reading(at: step) { _ = customDump(state, to: &new) }
        diff = lineDiff(old, new) ?? "(no change)"
      }
    }
    return InspectorMessage.detail(
      step: step, jumped: jumped,
      action: step > 0 ? InspectedValue.json(steps[step - 1].action) : nil,
      state: reading(at: step) { InspectedValue.json(state) }, diff: diff)
  }

  /// Puts the store at `step`; the pages are told with the step's detail.
  private func jump(to step: Int, page: PageConnection) {
    guard let state = state(at: step) else {
      page.send(
        InspectorMessage.error(
          context: "jump",
          message: "There is no step \(step): the timeline has steps 0 to \(steps.count)."))
      return
    }
    // NB: the shared values the state holds go back to their values at that step too (a
    // persisted one is saved), as `jump(toStep:in:reducer:)` does.
    shared(at: step)?.restore()
    guard feature.replaceState(state) else {
      page.send(
        InspectorMessage.error(
          context: "jump", message: "The store could not be put at step \(step)."))
      return
    }
    travelledTo = step
    if let detail = detail(step, jumped: true, context: "jump", page: page) { broadcast(detail) }
  }

  /// Puts the store back at its live state: the state of the last step.
  func resume() {
    if travelledTo != nil, let live = steps.last?.state ?? initialState {
      shared(at: steps.count)?.restore()
      _ = feature.replaceState(live)
    }
    travelledTo = nil
    broadcast(InspectorMessage.live(stepCount: sentCount))
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
      page.send(InspectorMessage.error(context: "send", message: describe(error)))
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

  private func generate(page: PageConnection) {
    guard let generateTest else {
      page.send(
        InspectorMessage.error(
          context: "generateTest", message: "This inspector was started without a test generator."))
      return
    }
    do {
      let data = try exportData()
      page.send(InspectorMessage.generatedTest(try generateTest(data)))
    } catch {
      page.send(InspectorMessage.error(context: "generateTest", message: "\(error)"))
    }
  }

  // MARK: - Export

  /// The session as the JSON that `Recording(jsonData:)` reads, with each step's origin and time.
  func exportData() throws(ExportError) -> Data {
    guard let initialState else { throw .noSession }
    guard let initial = initialState as? any Encodable else { throw .notEncodable("\(State.self)") }
    var actions: [AnyEncodable] = []
    var checkpoints: [ExportedCheckpoint] = []
    var origins: [ActionOrigin] = []
    var times: [Int64] = []
    actions.reserveCapacity(steps.count)
    checkpoints.reserveCapacity(steps.count)
    for (index, step) in steps.enumerated() {
      guard let featureAction = step.featureAction else {
        throw .notAnAction(step: index + 1, caseName: step.caseName)
      }
      guard let action = featureAction as? any Encodable else {
        throw .notEncodable("\(Action.self)")
      }
      guard let state = step.state as? any Encodable else { throw .notEncodable("\(State.self)") }
      actions.append(AnyEncodable(value: action))
      checkpoints.append(
        ExportedCheckpoint(step: index + 1, state: AnyEncodable(value: state, shared: step.shared)))
      origins.append(step.origin)
      times.append(microseconds(step.time))
    }
    let recording = ExportedRecording(
      actions: actions, checkpoints: checkpoints,
      formatVersion: Recording<State, Action>.formatVersion,
      initialState: AnyEncodable(value: initial, shared: initialShared), origins: origins,
      stateInterval: 1, times: times)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    do {
      return try encoder.encode(recording)
    } catch {
      throw .encodingFailed(describe(error))
    }
  }

  func exportResponse() -> InspectorResponse {
    do {
      return .json(.ok, try exportData())
    } catch {
      return .text(.conflict, error.description)
    }
  }
}

/// Why a session could not be exported.
enum ExportError: Error, CustomStringConvertible {
  case noSession
  case notEncodable(String)
  case notAnAction(step: Int, caseName: String)
  case encodingFailed(String)

  var description: String {
    switch self {
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

/// The JSON of a `Recording`, with each step's origin and time.
private struct ExportedRecording: Encodable {
  let actions: [AnyEncodable]
  let checkpoints: [ExportedCheckpoint]
  let formatVersion: Int
  let initialState: AnyEncodable
  let origins: [ActionOrigin]
  let stateInterval: Int
  /// When each action was reduced, in microseconds since the timeline started.
  let times: [Int64]
}

private struct ExportedCheckpoint: Encodable {
  let step: Int
  let state: AnyEncodable
}

/// An error in a sentence: a decoding error names where it went wrong.
func describe(_ error: any Error) -> String {
  guard let error = error as? DecodingError else { return "\(error)" }
  func path(_ context: DecodingError.Context) -> String {
    let path = context.codingPath.map { key in
      key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)"
    }.joined()
    return path.isEmpty ? "the top level" : "'\(path.drop { $0 == "." })'"
  }
  switch error {
  case .typeMismatch(_, let context), .valueNotFound(_, let context),
    .dataCorrupted(let context):
    return "The action does not decode: at \(path(context)): \(context.debugDescription)"
  case .keyNotFound(let key, let context):
    return "The action does not decode: at \(path(context)): no value for '\(key.stringValue)'"
  @unknown default:
    return "\(error)"
  }
}
