// Owns what the Inspector keeps of a session in memory, and its policy, as a value with no I/O:
// each step's action (never its state), the root's state with its shared values only at
// checkpoints, when a step becomes one, and how a step's state is recomputed from the
// checkpoint before it (by the reducer, on the recorded actions, a skipped step passed by).
// InspectorSession.swift is the shell: it records the store's steps here, answers the pages, and
// runs long recomputations a slice at a time.
//
// The memory follows the number of steps and what changed, not the size of the state times the
// number of steps: keeping every step's state would keep a copy of every collection the reducer
// changes (copy-on-write), which is what made 8,000 adds cost gigabytes. The number of
// checkpoints is bounded too: past it, every other regular checkpoint goes and the interval
// doubles, so that a large state costs a bounded number of copies, and a recomputed step runs at
// most a few thousand actions. A checkpoint made because the state changed outside the reducer
// is pinned: the steps after it can't be recomputed without it. The timeline is a window: past
// its maximum number of steps, the oldest leave the window at once, and are dropped from memory
// a checkpoint at a time.
import Foundation
import Statecraft

/// The steps of a session, and the checkpoints its states are recomputed from.
struct InspectorTimeline<Action> {
  /// One step: what the root reduced, and how the page shows it. No state.
  struct Step {
    /// The action as the root reduced it: what a replay runs.
    let rootAction: Any
    /// The action as the inspected feature has it, for the page.
    let action: Any
    /// The feature's action; nil for an idiom's own event (a reactor's mutation).
    let featureAction: Action?
    let origin: ActionOrigin
    /// When the action was reduced, since the session started.
    let time: Duration
    let caseName: String
    /// The action as the pages' log shows it: its JSON, at most 160 characters. Made once, when
    /// the step is recorded, so that sending the whole timeline again (a page that connects,
    /// a move) encodes no action: at 20,000 steps that took the main actor 0.3 s.
    let summary: String
    /// Left out of the session ("skip"): its state is the one before it, a replay passes it by,
    /// and an export leaves it out.
    var isSkipped = false
  }

  /// The root's state after a step, and the values its shared values had then.
  struct Checkpoint {
    let step: Int
    let rootState: Any
    let shared: SharedSnapshot?
    /// Made because the state before its step did not come from the last step's by the
    /// reducer alone (a shared value written outside it, a replaced state): never thinned.
    var isPinned = false
  }

  /// Steps set aside by "continue from here": the steps after `from`, and their checkpoints.
  struct Branch {
    let from: Int
    let steps: [Step]
    let checkpoints: [Checkpoint]
  }

  /// The step whose state the window starts from (0 until older steps are dropped).
  private(set) var firstStep: Int
  /// Steps `firstStep + 1 ... lastStep`.
  /// In chunks, so that a step recorded while a recomputation holds a copy of the timeline
  /// copies one chunk, not every step.
  private(set) var steps = ChunkedArray<Step>()
  /// In step order; the first is at `firstStep`.
  private(set) var checkpoints: [Checkpoint]
  let limits: TimelineLimits
  /// The steps between two regular checkpoints now: it doubles when they are thinned.
  private(set) var checkpointInterval: Int

  init(start: Checkpoint, limits: TimelineLimits) {
    firstStep = start.step
    checkpoints = [start]
    self.limits = limits
    checkpointInterval = limits.checkpointInterval
  }

  /// What recording a step changed, beyond the step itself.
  struct Recorded {
    /// Checkpoints were thinned: a state computed from one that went may be dropped.
    var thinned = false
    /// The oldest steps were dropped.
    var trimmed = false
    /// The checkpoints thinned or trimmed: the caller frees them (off the main actor: the
    /// last holder of a checkpoint of 20,000 todos frees their undo stack's million todos).
    var dropped: [Checkpoint] = []
  }

  /// Appends `step`, whose state is `state`, with its shared values `shared()`, and keeps the
  /// timeline within its limits.
  ///
  /// The step is a checkpoint when `checkpointInterval` steps passed since the last one, or
  /// when `outsideChange`: the state before it did not come from the last step's by the reducer
  /// alone, so that it can't be recomputed (pinned). Past `limits.maximumCheckpoints`, every
  /// other checkpoint goes and the interval doubles. Past `limits.maximumSteps`, the oldest
  /// steps go, a checkpoint at a time, keeping every step from `floor` on.
  mutating func record(
    _ step: Step, state: Any, shared: SharedSnapshot?, outsideChange: Bool,
    keepingFrom floor: (_ lastStep: Int) -> Int
  ) -> Recorded {
    var recorded = Recorded()
    steps.append(step)
    if outsideChange || stepsSinceCheckpoint >= checkpointInterval {
      recorded.dropped = setCheckpoint(
        .init(step: lastStep, rootState: state, shared: shared, isPinned: outsideChange))
      let thinned = thin(toAtMost: limits.maximumCheckpoints)
      if !thinned.isEmpty {
        checkpointInterval *= 2
        recorded.thinned = true
        recorded.dropped += thinned
      }
    }
    let trimmed = trim(toAtMost: limits.maximumSteps, keepingFrom: floor(lastStep))
    recorded.trimmed = trimmed != nil
    recorded.dropped += trimmed ?? []
    return recorded
  }

  var lastStep: Int { firstStep + steps.count }

  /// Whether the timeline has a state for `step`.
  func contains(_ step: Int) -> Bool { (firstStep...lastStep).contains(step) }

  /// The first step the pages see, with at most `maximumSteps` steps after it. The window is
  /// hard: the steps before it may still be kept, until a checkpoint lets them go, to
  /// recompute the ones after, but they are neither listed nor viewed.
  var windowStart: Int { max(firstStep, lastStep - limits.maximumSteps) }

  /// Step `number` (`firstStep + 1 ... lastStep`).
  func step(_ number: Int) -> Step? {
    guard number > firstStep, number <= lastStep else { return nil }
    return steps[number - firstStep - 1]
  }

  /// Steps `from` through `through` as the pages' log lists them: those the timeline has (none
  /// when `through` is before `from`).
  func listed(from: Int, through: Int) -> [ListedStep] {
    let lower = max(from, firstStep + 1)
    let upper = min(through, lastStep)
    guard lower <= upper else { return [] }
    var listed: [ListedStep] = []
    listed.reserveCapacity(upper - lower + 1)
    // NB: each field read in place: a copy of a step would retain its actions too.
    for number in lower...upper {
      let index = number - firstStep - 1
      listed.append(
        ListedStep(
          index: number, caseName: steps[index].caseName, origin: steps[index].origin.rawValue,
          summary: steps[index].summary, isSkipped: steps[index].isSkipped))
    }
    return listed
  }

  /// The checkpoint at `step`, or the last one before it.
  func checkpoint(atOrBefore step: Int) -> Checkpoint {
    // NB: checkpoints are in step order: a binary search for the last one at or before `step`.
    var low = 0
    var high = checkpoints.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if checkpoints[middle].step <= step { low = middle } else { high = middle - 1 }
    }
    return checkpoints[low]
  }

  /// The number of steps since the last checkpoint.
  var stepsSinceCheckpoint: Int { lastStep - checkpoints[checkpoints.count - 1].step }

  /// Leaves step `number` (`firstStep + 1 ... lastStep`) out of the session, or puts it back.
  mutating func setSkipped(_ number: Int, _ skipped: Bool) {
    steps[number - firstStep - 1].isSkipped = skipped
  }

  /// The state after step `number`, from `state`, the one before it: its action run by
  /// `reduce`, or `state` itself when the step is skipped. Nil when there is no such step or
  /// the reducer can't run its action.
  func replay(_ number: Int, on state: Any, _ reduce: (Any, Any) -> Any?) -> Any? {
    guard let step = step(number) else { return nil }
    return step.isSkipped ? state : reduce(state, step.rootAction)
  }

  /// The state to recompute `step` from: the checkpoint at or before it, or a state at hand
  /// (`known`: states of steps, the last ones viewed) nearer to it. Its step is `step` when
  /// `step`'s own state is at hand.
  func start(for step: Int, known: [Checkpoint]) -> Checkpoint {
    if let hit = known.first(where: { $0.step == step }) { return hit }
    let from = checkpoint(atOrBefore: step)
    let nearer = known.filter { $0.step < step && $0.step > from.step }.max { $0.step < $1.step }
    return nearer ?? from
  }

  /// The root state at `step`, recomputed at once from `from` (a state of a step before it):
  /// each step's action run by `reduce` (a skipped one passed by), without effects, and with
  /// shared values written to copies (see SharedReplay.swift). With it, the states at the
  /// `keeping` steps on the way, in order (checkpoints to make again). Nil when the reducer
  /// can't run a step's action.
  func recompute(
    _ step: Int, from: Checkpoint, keeping: Set<Int> = [], _ reduce: (Any, Any) -> Any?
  ) -> (state: Checkpoint, kept: [Checkpoint])? {
    guard from.step < step else { return (from, []) }
    let replayed = SharedReplay.isolating(from: from.shared) { () -> (Any, [Checkpoint])? in
      var state = from.rootState
      var kept: [Checkpoint] = []
      for number in (from.step + 1)...step {
        guard let next = replay(number, on: state, reduce) else { return nil }
        state = next
        if keeping.contains(number) {
          kept.append(.init(step: number, rootState: state, shared: nil))
        }
      }
      return (state, kept)
    }
    guard let (state, kept) = replayed.result else { return nil }
    return (
      .init(step: step, rootState: state, shared: from.shared == nil ? nil : replayed.shared), kept
    )
  }

  /// The number of steps from the first to `step` that are not skipped: where `step` is in a
  /// recording of the timeline, which leaves the skipped ones out.
  func recordedIndex(of step: Int) -> Int {
    steps.prefix(step - firstStep).count { !$0.isSkipped }
  }

  /// Drops the checkpoints after `step`.
  mutating func dropCheckpoints(after step: Int) {
    checkpoints.removeAll { $0.step > step }
  }

  /// Makes `checkpoint` the one at its step (which must be `lastStep`, or a step the timeline
  /// has, for a state replaced by "continue from here").
  ///
  /// - Returns: The checkpoints it replaced (at its step and after), for the caller to free.
  @discardableResult
  mutating func setCheckpoint(_ checkpoint: Checkpoint) -> [Checkpoint] {
    let replaced = checkpoints.filter { $0.step >= checkpoint.step }
    checkpoints.removeAll { $0.step >= checkpoint.step }
    checkpoints.append(checkpoint)
    return replaced
  }

  /// While more than `maximumCount` checkpoints are kept, drops every other one that is not
  /// pinned (never the first, nor the last).
  ///
  /// - Returns: The checkpoints dropped, for the caller to free; when there are any, the
  ///   caller doubles its interval.
  mutating func thin(toAtMost maximumCount: Int) -> [Checkpoint] {
    guard checkpoints.count > maximumCount, checkpoints.count > 2 else { return [] }
    var kept: [Checkpoint] = [checkpoints[0]]
    var dropped: [Checkpoint] = []
    var dropNext = true
    for checkpoint in checkpoints.dropFirst().dropLast() {
      if checkpoint.isPinned || !dropNext {
        kept.append(checkpoint)
        dropNext = true
      } else {
        dropped.append(checkpoint)
        dropNext = false
      }
    }
    kept.append(checkpoints[checkpoints.count - 1])
    checkpoints = kept
    return dropped
  }

  /// Drops the oldest steps, a checkpoint at a time, while more than `maximumSteps` are kept
  /// and no step at or after `floor` would go.
  ///
  /// - Returns: The checkpoints dropped with the steps, for the caller to free; nil when no
  ///   step was dropped.
  mutating func trim(toAtMost maximumSteps: Int, keepingFrom floor: Int) -> [Checkpoint]? {
    guard steps.count > maximumSteps else { return nil }
    // NB: the new first step is the latest checkpoint that leaves at most `maximumSteps`
    // steps after it: older steps can't be recomputed without a checkpoint before them.
    let limit = min(lastStep - maximumSteps, floor)
    guard let index = checkpoints.lastIndex(where: { $0.step <= limit }), index > 0 else {
      return nil
    }
    let newFirst = checkpoints[index].step
    steps.removeFirst(newFirst - firstStep)
    let dropped = Array(checkpoints[..<index])
    checkpoints.removeFirst(index)
    firstStep = newFirst
    return dropped
  }

  /// Starts the timeline at its last step, whose state is `checkpoint`: the steps before it and
  /// their checkpoints go (Redux DevTools' "commit").
  mutating func commit(_ checkpoint: Checkpoint) {
    precondition(checkpoint.step == lastStep, "a timeline is committed at its last step")
    firstStep = lastStep
    steps.removeAll()
    checkpoints = [checkpoint]
  }

  /// Keeps only the checkpoints that writing the timeline needs: the first, the pinned ones,
  /// and the last, which its last state is recomputed from (a session set aside, kept until the
  /// app writes it at quit).
  ///
  /// - Returns: The checkpoints dropped, for the caller to free.
  mutating func keepTheCheckpointsToWriteIt() -> [Checkpoint] {
    guard checkpoints.count > 2 else { return [] }
    let last = checkpoints.count - 1
    var kept: [Checkpoint] = []
    var dropped: [Checkpoint] = []
    for (index, checkpoint) in checkpoints.enumerated() {
      if index == 0 || index == last || checkpoint.isPinned {
        kept.append(checkpoint)
      } else {
        dropped.append(checkpoint)
      }
    }
    checkpoints = kept
    return dropped
  }

  /// Removes the steps after `step`, and their checkpoints, and returns them.
  mutating func cut(after step: Int) -> Branch {
    let kept = step - firstStep
    let branch = Branch(
      from: step, steps: Array(steps[kept...]),
      checkpoints: checkpoints.filter { $0.step > step })
    steps.removeSubrange(kept...)
    checkpoints.removeAll { $0.step > step }
    return branch
  }

  /// Puts back steps set aside after `branch.from` (the timeline must end there).
  mutating func restore(_ branch: Branch) {
    precondition(lastStep == branch.from, "a branch goes back where it was cut")
    steps.append(contentsOf: branch.steps)
    checkpoints.append(contentsOf: branch.checkpoints)
  }
}
