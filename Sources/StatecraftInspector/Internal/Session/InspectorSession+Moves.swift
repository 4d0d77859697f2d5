// Owns the ways a page changes the store, each only when asked: "continue from here" and its
// undo, skip and unskip, commit, and an action sent from the page. Each recomputes what it needs
// a slice at a time, as a view does (the app's work runs between two slices, and the page is
// told how far it came and can cancel), then puts the store at the result in one step.

import Foundation
import Statecraft

extension InspectorSession {
  // MARK: - Continue from here

  /// Puts the store at `step`, setting aside the steps after it, which `undoContinue` puts
  /// back: the one way a page changes the store's state, and only when asked. Steps an earlier
  /// continue set aside are kept, as the session its undo would have made
  /// (`earlierBranches`).
  ///
  /// The steps the app takes while the state at `step` is recomputed are set aside with the
  /// others.
  func continueFrom(_ step: Int, page: PageConnection) async {
    guard let before = self.timeline, isViewable(step) else {
      page.send(noSuchStep(step, context: "continue"))
      return
    }
    flush()
    guard step < before.lastStep else {
      page.send(
        InspectorMessage.error(
          context: "continue",
          message: "Step \(step) is the live state: there is nothing to set aside."))
      return
    }
    let generation = self.generation
    let target = await rootState(
      at: step, in: before, progress: progress(of: "continue", at: step, to: page))
    guard !Task.isCancelled else { return }
    guard let target else {
      page.send(
        InspectorMessage.error(
          context: "continue", message: "The state at step \(step) could not be recomputed."))
      return
    }
    guard generation == self.generation, var timeline = self.timeline, isViewable(step) else {
      return changedMeanwhile(step, context: "continue", page: page)
    }
    flush()
    let liveStep = timeline.lastStep
    // NB: the session the last continue's undo would make, before this one cuts it. It is
    // only written at quit: it keeps the states that needs (each continue kept a whole
    // timeline's, and a session of many continues grew by them).
    var dropped: [InspectorTimeline<Action>.Checkpoint] = []
    let earlier = branch.map { earlier in
      var undone = timeline
      _ = undone.cut(after: earlier.from)
      undone.restore(earlier)
      dropped = undone.keepTheCheckpointsToWriteIt()
      return undone
    }
    letGoOffTheMainActor([consume dropped as Any])
    let aside = timeline.cut(after: step)
    guard moveStore(to: target, in: &timeline) else {
      timeline.restore(aside)
      page.send(
        InspectorMessage.error(
          context: "continue", message: "The store could not be put at step \(step)."))
      return
    }
    branch = aside
    if let earlier { earlierBranches.append(earlier) }
    self.timeline = timeline
    let kept =
      earlier == nil
      ? ""
      : """
       The steps set aside before are kept as a session of their own \
      (\(earlierBranches.count) kept), for the app to keep at quit.
      """
    sendTimeline(
      to: Array(pages.values),
      note: """
        Continued from step \(step): steps \(step + 1) to \(liveStep) were set aside. \
        Undo puts them back.\(kept)
        """)
  }

  /// Swaps the steps set aside by the last "continue from here" with the ones made since.
  ///
  /// The steps the app takes while the steps set aside are recomputed are set aside with the
  /// others made since the continue.
  func undoContinue(page: PageConnection) async {
    guard var restored = self.timeline, let aside = branch else {
      page.send(
        InspectorMessage.error(
          context: "undoContinue", message: "There is no \"continue from here\" to undo."))
      return
    }
    flush()
    _ = restored.cut(after: aside.from)
    restored.restore(aside)
    let generation = self.generation
    let recomputed = await recompute(
      restored.lastStep, in: restored, from: restored.checkpoint(atOrBefore: restored.lastStep),
      progress: progress(of: "undoContinue", at: restored.lastStep, to: page))
    guard !Task.isCancelled else { return }
    guard let recomputed else {
      page.send(
        InspectorMessage.error(
          context: "undoContinue", message: "The store could not be put back."))
      return
    }
    guard generation == self.generation, var timeline = self.timeline, branch != nil else {
      return changedMeanwhile(aside.from, context: "undoContinue", page: page)
    }
    flush()
    let madeSince = timeline.cut(after: aside.from)
    timeline.restore(aside)
    self.timeline = timeline
    forgetComputedStates()
    let target = (recomputed.state.rootState, recomputed.state.shared)
    guard moveStore(to: target, in: &timeline) else {
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
  ///
  /// The steps the app takes while the steps after `step` are recomputed are recomputed too,
  /// a slice at a time, until none was taken meanwhile.
  func skip(_ step: Int, skipped: Bool, page: PageConnection) async {
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
    if let made = timeline.checkpoints.first(where: { $0.isPinned && $0.step >= step }) {
      return refuse(
        """
        Step \(step) can't be \(skipped ? "skipped" : "put back"): the state before step \
        \(made.step) was changed outside the reducer (a shared value written, a state replaced), \
        so the steps from there don't follow from the ones before.
        """)
    }
    timeline.setSkipped(step, skipped)
    let from = timeline.checkpoint(atOrBefore: step - 1)
    let last = timeline.lastStep
    // NB: the checkpoints after the step held states with its action (or without it): they
    // are made again on the way, where they were (with shared values, only the last is).
    let remade = Set(timeline.checkpoints.map(\.step).filter { $0 > from.step && $0 < last })
    let generation = self.generation
    let sliced = await recompute(
      last, in: timeline, from: from, keeping: from.shared == nil ? remade : [],
      progress: progress(of: context, at: step, to: page))
    guard !Task.isCancelled else { return }
    guard let sliced else { return refuse("The steps after \(step) could not be recomputed.") }
    // NB: the steps the app recorded meanwhile come after `last`. They are recomputed from the
    // state reached, a slice at a time too, in rounds, until a round ends within one slice: no
    // pause, so no step was recorded meanwhile, and the store moves in the same turn. (They
    // were recomputed at once: the 300 adds typed during a skip of 20,000 held the main actor
    // for a quarter of a second.) A round costs the replay of what the app did during the
    // last, which took the app at least as long, so the rounds get shorter.
    var reached = sliced.state
    var before: InspectorTimeline<Action>
    while true {
      guard generation == self.generation, let now = self.timeline, isViewable(step),
        now.step(step)?.isSkipped == !skipped
      else {
        return changedMeanwhile(step, context: context, page: page)
      }
      before = now
      timeline = now
      timeline.setSkipped(step, skipped)
      guard reached.step < timeline.lastStep else { break }
      let caughtUp = await recompute(timeline.lastStep, in: timeline, from: reached)
      guard !Task.isCancelled else { return }
      guard let caughtUp else {
        return refuse("The steps after \(step) could not be recomputed.")
      }
      reached = caughtUp.state
    }
    flush()
    timeline.dropCheckpoints(after: from.step)
    for checkpoint in sliced.kept { timeline.setCheckpoint(checkpoint) }
    let target = (reached.rootState, reached.shared)
    guard moveStore(to: target, in: &timeline) else {
      self.timeline = before
      return refuse("The store could not be put at the state without step \(step).")
    }
    let replaced = self.timeline
    self.timeline = timeline
    letGoOffTheMainActor([consume replaced as Any, consume before as Any])
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

  /// A progress report of a move's recomputation, to `page`.
  private func progress(of context: String, at step: Int, to page: PageConnection)
    -> ProgressReport
  {
    ProgressReport(page: page, context: context, step: step, interval: slicing.progressInterval)
  }

  /// Tells `page` the move it asked for was not made: another page moved the store, or the
  /// timeline was committed or dropped, while its steps were recomputed.
  private func changedMeanwhile(_ step: Int, context: String, page: PageConnection) {
    page.send(
      InspectorMessage.error(
        context: context,
        message: """
          The session changed while the steps for step \(step) were recomputed (another page \
          moved the store, or the timeline was committed): nothing was changed. Ask again.
          """))
  }

  /// Starts the timeline at the live state, dropping the steps before it (Redux DevTools'
  /// "commit"): the app's state doesn't change, and "continue from here" at the new first step
  /// goes back to it (a revert). Refused while steps are set aside: committing would drop them.
  func commit(page: PageConnection) {
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
    let replaced = self.timeline
    self.timeline = timeline
    letGoOffTheMainActor([consume replaced as Any])
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
  /// The checkpoint is not pinned: `target` is a replay of the timeline's own steps (a
  /// continue's, its undo's, a skip's), so an export leaves it out and recomputes it, and it is
  /// thinned like any other (pinned, a session of many moves kept a state for each, and wrote
  /// each to its export).
  func moveStore(
    to target: (rootState: Any, shared: SharedSnapshot?),
    in timeline: inout InspectorTimeline<Action>
  ) -> Bool {
    guard let state = feature.featureState(target.rootState) else { return false }
    // NB: the shared values the state holds go back to their values at that step too (a
    // persisted one is saved): the user chose this state.
    target.shared?.restore()
    guard feature.replaceState(state), let live = feature.currentRootState() else { return false }
    let replaced = timeline.setCheckpoint(
      .init(step: timeline.lastStep, rootState: live, shared: snapshot()))
    // NB: the steps between two moves may be fewer than the interval, which then never makes a
    // checkpoint that would thin them.
    let thinned = timeline.thin(toAtMost: timeline.limits.maximumCheckpoints)
    letGoOffTheMainActor([consume replaced as Any, consume thinned as Any])
    forgetComputedStates()
    sentCount = timeline.lastStep
    takeTheStoreAsItIs()
    return true
  }

  /// Forgets the states recomputed and their trees, and starts over the work that awaited
  /// across this: the timeline's steps may no longer be what they were.
  func forgetComputedStates() {
    let states: [Any] = [recomputed, lastStates, leftLiveEnd]
    recomputed = []
    lastStates = []
    leftLiveEnd = []
    letGoOffTheMainActor(consume states)
    let dropped = trees
    trees = []
    dropOffTheMainActor(consume dropped)
    generation += 1
  }

  /// Lets go of `trees` off the main actor (see `Releaser`): freeing the tree of a state of
  /// 20,000 todos with their undo stack held it 9 ms, at the end of every move and at every
  /// fifth view.
  func dropOffTheMainActor(_ trees: consuming [(step: Int, generation: Int, tree: JSONValue)]) {
    guard !trees.isEmpty else { return }
    Releaser.shared.release(consume trees)
  }

  /// Lets go of `replaced`, states and steps the session holds no more (the timeline a move
  /// replaced, the states it recomputed), off the main actor (see `Releaser`): the last holder
  /// of a checkpoint of 20,000 todos frees the 1.5 million todos of its undo stack, which held
  /// the main actor 79 ms at the end of a skip. Only once a state was encoded off the main
  /// actor and none held a class instance, whose deinit may expect the main actor
  /// (`encodesOffMainActor`); on the main actor before that, and after.
  func letGoOffTheMainActor(_ replaced: consuming [Any]) {
    guard encodesOffMainActor else { return }
    Releaser.shared.release(consume replaced)
  }

  /// Takes the store's state and shared values as they are now as the last step's: a
  /// difference before the next step then comes from outside the reducer (a checkpoint).
  func takeTheStoreAsItIs() {
    needsCheckpoint = false
    sharedChangesAfterLastStep = sharedChangeCount()
    replacementsAfterLastStep = feature.runtime.stepObservers.stateReplacementCount
  }

  func send(_ json: Data, page: PageConnection) {
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

  func decodeAction(_ type: any Decodable.Type, from json: Data) throws -> Action {
    func decode<T: Decodable>(_ type: T.Type) throws -> Action {
      let value = try JSONDecoder().decode(T.self, from: json)
      return value as! Action
    }
    return try decode(type)
  }
}
