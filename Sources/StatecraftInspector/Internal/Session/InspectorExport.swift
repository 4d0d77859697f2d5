// Owns the session as a recording: the export (its actions, a slice at a time, and only the
// states that can't be recomputed), the steps set aside written at quit, and the test made from
// an export.
import Foundation
import Statecraft

/// The encoder of an export's values, as a recording encodes them (one for every session).
@MainActor private let exportEncoder = RecordingJSON.makeEncoder()

extension InspectorSession {
  func generate(page: PageConnection) async {
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

  /// The sessions set aside, in the format of ``exportData()``, the earliest first: each
  /// earlier continue's (`earlierBranches`), then the one "undo continue" would make now (the
  /// steps up to the last continue, then the ones it set aside). Empty when no step is set
  /// aside.
  func setAsideData() throws(ExportError) -> [Data] {
    var sessions = earlierBranches
    if var timeline, let branch {
      _ = timeline.cut(after: branch.from)
      timeline.restore(branch)
      sessions.append(timeline)
    }
    var data: [Data] = []
    for session in sessions { data.append(try sessionData(of: session)) }
    return data
  }

  /// `timeline` in the format of ``exportData()``, its actions encoded and its last state
  /// recomputed at once: at quit, there is no app's work to run first.
  private func sessionData(of timeline: InspectorTimeline<Action>) throws(ExportError) -> Data {
    guard canExport else { throw .notEncodable("\(State.self) or \(Action.self)") }
    var writer = ExportWriter(timeline: timeline)
    try writer.encodeActions(
      slice: SliceBudget(maximumDuration: .seconds(1_000_000)), json: exportJSON)
    let from = timeline.checkpoint(atOrBefore: timeline.lastStep)
    guard let (last, _) = timeline.recompute(timeline.lastStep, from: from, feature.reduce) else {
      throw .encodingFailed("the last step could not be recomputed")
    }
    return try writer.finish(
      last: (last.rootState, last.shared), json: exportJSON, state: feature.featureState)
  }

  func exportJSON(_ value: Any) throws(ExportError) -> Data {
    guard let value = value as? any Encodable else { throw .notEncodable("\(type(of: value))") }
    do {
      return try exportEncoder.encode(AnyEncodable(value: value))
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

/// Writes a timeline as a recording, through the writer of `Recording`'s JSON
/// (``RecordingJSON``): its actions a slice at a time, then its states that can't be recomputed
/// (its first, the pinned checkpoints) and its last.
@MainActor
private struct ExportWriter<Action> {
  let timeline: InspectorTimeline<Action>
  private var next: Int
  private var actions: [Data] = []
  private var origins: [ActionOrigin?] = []
  private var times: [Duration?] = []

  init(timeline: InspectorTimeline<Action>) {
    self.timeline = timeline
    next = timeline.firstStep + 1
  }

  var isDone: Bool { next > timeline.lastStep }
  /// The number of actions encoded so far.
  var encoded: Int { next - timeline.firstStep - 1 }

  mutating func encodeActions(
    slice: SliceBudget, json: (Any) throws(ExportError) -> Data
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
      origins.append(step.origin)
      times.append(step.time)
      next += 1
      count += 1
      if count >= slice.maximumSteps || ContinuousClock.now >= deadline { break }
    }
  }

  func finish<State>(
    last: (rootState: Any, shared: SharedSnapshot?),
    json: (Any) throws(ExportError) -> Data, state: (Any) -> State?
  ) throws(ExportError) -> Data {
    func stateJSON(_ rootState: Any, _ shared: SharedSnapshot?) throws(ExportError) -> Data {
      guard let state = state(rootState) else { throw .notEncodable("\(State.self)") }
      guard let shared else { return try json(state) }
      var result: Result<Data, ExportError>?
      shared.whileReading {
        do throws(ExportError) { result = .success(try json(state)) } catch {
          result = .failure(error)
        }
      }
      return try result!.get()
    }
    let first = timeline.checkpoint(atOrBefore: timeline.firstStep)
    let stepCount = timeline.recordedIndex(of: timeline.lastStep)
    var recording = RecordingJSON(
      initialState: try stateJSON(first.rootState, first.shared),
      stateInterval: max(stepCount, 1))
    recording.actions = actions
    recording.origins = origins
    recording.times = times
    for checkpoint in timeline.checkpoints
    where checkpoint.isPinned && checkpoint.step > timeline.firstStep
      && checkpoint.step < timeline.lastStep
    {
      recording.checkpoints.append(
        (
          step: timeline.recordedIndex(of: checkpoint.step),
          state: try stateJSON(checkpoint.rootState, checkpoint.shared)
        ))
    }
    if stepCount > 0 {
      recording.checkpoints.append(
        (step: stepCount, state: try stateJSON(last.rootState, last.shared)))
    }
    return recording.data()
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
