// Owns the thread on which the Inspector frees what it lets go of (the timeline a move replaced,
// the states and trees it no longer keeps), at the lowest priority, so that freeing a large
// state neither holds the main actor nor takes a core from the app.

import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Frees what it is handed on a thread of its own, at the lowest priority: nice 19 on Linux
/// (where a thread has a nice value of its own), the background quality of service elsewhere.
///
/// What it is handed is only released, never read. It runs whenever a core has room; under a
/// full load it gets about 1.5 % of a core, so the memory comes back a little later, and the app
/// never waits for it. (Freed on the main actor, the checkpoint of 20,000 todos a skip replaced
/// held it 79 ms; freed by a task of the default priority, it took a core from the app on a
/// machine of two, and a key typed then waited as long.)
///
/// NB: `@unchecked Sendable`: `pending` is read and written under `condition`'s lock, `staged`
/// on the main actor only, and what they hold is only released.
final class Releaser: @unchecked Sendable {
  /// The Inspector's one releaser: its thread lives as long as the process.
  static let shared = Releaser()

  private let condition = NSCondition()
  private var pending: [Any] = []

  private init() {
    let thread = Thread { [self] in run() }
    #if !canImport(Glibc)
      thread.qualityOfService = .background
    #endif
    thread.start()
  }

  /// What the main actor handed over since its last job: it goes to ``pending`` at the main
  /// actor's next job.
  @MainActor private var staged: [Any] = []
  @MainActor private var handOverIsScheduled = false

  /// Frees `value` on the releaser's thread (what nothing else holds by then), once the main
  /// actor's current job is done.
  ///
  /// NB: the value reaches the releaser's thread only at the main actor's next job: by then the
  /// caller's frames are gone, with any copy of `value` they held. Handed over at once, a copy
  /// left in a caller's frame (which a build without optimization keeps to the end of its
  /// statement) could be released after the releaser's, and the value freed on the main actor:
  /// the thread sanitizer's build did that.
  @MainActor
  func release(_ value: consuming Any) {
    staged.append(consume value)
    guard !handOverIsScheduled else { return }
    handOverIsScheduled = true
    Task { @MainActor in self.handOver() }
  }

  @MainActor
  private func handOver() {
    handOverIsScheduled = false
    condition.lock()
    // NB: both under the lock: when the releaser takes `pending`, `staged` holds none of them.
    pending.append(contentsOf: staged)
    staged.removeAll()
    condition.signal()
    condition.unlock()
  }

  /// The name of the releaser's thread (Linux keeps 15 characters of a thread's name).
  static let threadName = "sc-releaser"

  private func run() {
    // NB: named from the thread itself: on Linux, a name set before the thread starts is lost.
    Thread.current.name = Self.threadName
    #if canImport(Glibc)
      // NB: Linux gives each thread a nice value of its own: `who` 0 is the calling thread.
      _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
    #endif
    while true {
      condition.lock()
      while pending.isEmpty { condition.wait() }
      var taken: [Any] = []
      swap(&taken, &pending)
      condition.unlock()
      // NB: freed here, outside the lock: a release handed over meanwhile doesn't wait.
      taken.removeAll()
    }
  }
}
