// Owns what a page views: a step's state, recomputed from the checkpoint before it a slice at a
// time and encoded off the main actor (TreeEncoder.swift), sent as its changed paths and a cut
// of its tree (InspectedTree.swift), and more of a container on demand. Viewing never touches
// the store.
import Foundation
import Statecraft

extension InspectorSession {
  // MARK: - States

  /// The root's state at `step`, and its shared values then: a checkpoint's, or recomputed
  /// from the checkpoint before it by the reducer (without effects, and with shared values
  /// written to copies: see SharedReplay.swift).
  func rootState(at step: Int) -> (rootState: Any, shared: SharedSnapshot?)? {
    guard let timeline, timeline.contains(step) else { return nil }
    let from = timeline.start(for: step, known: knownStates)
    guard from.step < step else { return (from.rootState, from.shared) }
    guard let (state, _) = timeline.recompute(step, from: from, feature.reduce) else { return nil }
    remember(state)
    return (state.rootState, state.shared)
  }

  /// Keeps `state`, just recomputed, as one of the last two: a page that views a step asks for
  /// it and the one before it, and then often the next (play, →), which is recomputed from it.
  ///
  /// NB: two, not more: a state far from the live end shares nothing with the others, and at
  /// 20,000 todos with their undo stack each one kept was 100 to 200 MB. A third would only
  /// help a page going back and forth between two far steps.
  private func remember(_ state: InspectorTimeline<Action>.Checkpoint) {
    recomputed.append(state)
    if recomputed.count > 2 { recomputed.removeFirst() }
  }

  /// The feature's state at `step` (0: where the session started), recomputed if need be.
  func state(at step: Int) -> State? {
    rootState(at: step).flatMap { feature.featureState($0.rootState) }
  }

  func noSuchStep(_ step: Int, context: String) -> String {
    guard let timeline else {
      return InspectorMessage.error(context: context, message: "No session is being recorded.")
    }
    let dropped =
      step < windowStart && step >= 0
      ? " Older steps were dropped: the timeline keeps at most \(timeline.limits.maximumSteps) steps."
      : ""
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
  func sendDetail(
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
      // NB: the states at hand now, taken before the first await: a page that follows asks for
      // the live step, whose state and the one before it the session has (`lastStates`), but
      // steps recorded while the first is encoded would push them out, and the second would be
      // recomputed from a checkpoint, sharing none of the store's storage (at 20,000 todos with
      // their undo stack, hundreds of megabytes a view).
      let atHand = knownStates.filter { $0.step == step || $0.step == step - 1 }
      let storeHadIt = storeHad(step)
      let previous =
        hasPrevious ? await tree(at: step - 1, atHand: atHand, progress: progress) : nil
      let state = await tree(at: step, atHand: atHand, progress: progress)
      if storeHadIt { encodedStoreStep = step }
      // NB: the page cancelled it: no answer.
      guard !Task.isCancelled else { return }
      guard let state, generation == self.generation else {
        if generation != self.generation, self.timeline != nil, isViewable(step) { continue }
        page.send(noSuchStep(step, context: context))
        return
      }
      guard let timeline = self.timeline else { return }
      // NB: a step is recomputed unless it is a checkpoint or a state the store had (one of
      // the last steps, the live end a page left).
      let fields = InspectedTree.DetailFields(
        step: step, viewing: viewing, liveStep: timeline.lastStep,
        recomputed: timeline.checkpoint(atOrBefore: step).step != step
          && !storeHadIt,
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
  func sendChildren(
    _ step: Int, path: JSONPath, offset: Int, to page: PageConnection
  ) async {
    let progress = ProgressReport(
      page: page, context: "children", step: step, interval: slicing.progressInterval)
    let state = isViewable(step) ? await tree(at: step, progress: progress) : nil
    if storeHad(step) { encodedStoreStep = step }
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
  ///
  /// `atHand`: states taken from ``knownStates`` before the caller's first await, of this
  /// generation, used while the generation lasts.
  func tree(
    at step: Int, atHand: [InspectorTimeline<Action>.Checkpoint] = [],
    progress: ProgressReport? = nil
  ) async -> JSONValue? {
    let atHandGeneration = generation
    while true {
      let generation = self.generation
      guard let timeline, timeline.contains(step) else { return nil }
      if let hit = trees.first(where: { $0.step == step && $0.generation == generation }) {
        return hit.tree
      }
      let root = await rootState(
        at: step, in: timeline, atHand: generation == atHandGeneration ? atHand : [],
        progress: progress)
      guard !Task.isCancelled else { return nil }
      guard generation == self.generation else { continue }
      guard let root, let state = feature.featureState(root.rootState) else { return nil }
      let tree = await encodeTree(of: state, reading: root.shared)
      guard generation == self.generation else { continue }
      trees.append((step, generation, tree))
      if trees.count > 4 { dropOffTheMainActor([trees.removeFirst()]) }
      return tree
    }
  }

  /// `state` as a tree, at the cost of what changed since the last state encoded (see
  /// TreeEncoder.swift). Off the main actor, so that a key typed meanwhile reaches the app at
  /// once: a state is a value, and the shared values it holds are read as they were recorded.
  /// On the main actor once a state held anything else (a class instance, a shared value not
  /// recorded), which the app may change meanwhile. One encoding at a time.
  func encodeTree(of state: State, reading shared: SharedSnapshot?) async -> JSONValue {
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
      if let tree {
        hasEncodedOffMainActor = true
        return tree
      }
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

  /// Has the encoder forget the values it met (``TreeEncoder/forgetValues()``), after the
  /// encodings under way (see `encodedStoreStep`).
  func encoderForgetsValues() {
    let encoder = treeEncoder
    guard let previous = encoding else {
      encoder.forgetValues()
      return
    }
    let task = Task.detached { () -> JSONValue? in
      // NB: after the encoding before it, as every encoding waits for the one before.
      _ = await previous.value
      encoder.forgetValues()
      return nil
    }
    encoding = task
  }

  /// The root's state at `step` of `timeline`, recomputed as ``rootState(at:)`` does, but a
  /// slice at a time (``slicing``), so that the app's work runs between two slices.
  ///
  /// Nil, too, once the task is cancelled: it stops at the end of a slice.
  func rootState(
    at step: Int, in timeline: InspectorTimeline<Action>,
    atHand: [InspectorTimeline<Action>.Checkpoint] = [], progress: ProgressReport? = nil
  ) async -> (rootState: Any, shared: SharedSnapshot?)? {
    guard timeline.contains(step) else { return nil }
    let generation = self.generation
    let from = timeline.start(for: step, known: atHand + knownStates)
    guard from.step < step else { return (from.rootState, from.shared) }
    guard let (state, _) = await recompute(step, in: timeline, from: from, progress: progress)
    else { return nil }
    if generation == self.generation { remember(state) }
    return (state.rootState, state.shared)
  }

  /// The root's state at `step` of `timeline`, recomputed from `from` (a state of a step
  /// before it) as ``InspectorTimeline/recompute(_:from:keeping:_:)`` does, with the states at
  /// the `keeping` steps on the way, but a slice at a time (``slicing``): the app's work runs
  /// between two slices, and steps it records meanwhile come after `step`.
  ///
  /// Nil when the reducer can't run a step's action, and once the task is cancelled: it stops
  /// at the end of a slice.
  func recompute(
    _ step: Int, in timeline: InspectorTimeline<Action>,
    from: InspectorTimeline<Action>.Checkpoint, keeping: Set<Int> = [],
    progress: ProgressReport? = nil
  ) async -> (
    state: InspectorTimeline<Action>.Checkpoint, kept: [InspectorTimeline<Action>.Checkpoint]
  )? {
    let hasShared = from.shared != nil
    var state = from.rootState
    var shared = from.shared
    var kept: [InspectorTimeline<Action>.Checkpoint] = []
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
          if keeping.contains(next) {
            kept.append(.init(step: next, rootState: current, shared: nil))
          }
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
    return (.init(step: max(step, from.step), rootState: state, shared: shared), kept)
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
