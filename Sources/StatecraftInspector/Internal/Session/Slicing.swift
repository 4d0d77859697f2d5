// Owns how the Inspector's long work shares the main actor with the app: slices of a budget with
// a pause between them, the pacing of a following page, and the progress a page is told of.
import Foundation
import Statecraft

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
