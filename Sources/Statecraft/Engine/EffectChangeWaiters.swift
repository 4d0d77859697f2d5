// Owns what a test store waits on while effects run: a count bumped at every change it may wait
// for (a batch published, an effect started, finished or cancelled), and the waiters to resume
// at the next one. The effect registry (EffectRegistry.swift) tells it of each change.

/// The test store's waiters on a store tree's effects.
@MainActor
package final class EffectChangeWaiters {
  /// Bumped at every change a test store may wait for: a batch published, an effect started,
  /// finished or cancelled.
  // NB: `@exclusivity(unchecked)`: read by a test store at every wait and bumped here, on the
  // main actor; every access is a load or an `&+=` that calls nothing.
  @exclusivity(unchecked) package private(set) var changeCount: UInt64 = 0
  // NB: `@exclusivity(unchecked)`: main-actor only, and `resume()` copies the waiters and
  // empties the table before it calls them, so a waiter that registers again (as a test
  // store's does) writes to a table no access is held on.
  @exclusivity(unchecked)
  private var waiters: [UInt64: @MainActor () -> Void] = [:]
  private var nextWaiter: UInt64 = 0

  nonisolated init() {}

  /// Calls `waiter` once, at the next change: an effect finishes or a batch is published. A test
  /// store registers before it checks its condition, so that no change falls in between.
  ///
  /// - Returns: An id for ``remove(_:)``.
  package func whenChanged(_ waiter: @escaping @MainActor () -> Void) -> UInt64 {
    let id = nextWaiter
    nextWaiter &+= 1
    waiters[id] = waiter
    return id
  }

  /// Forgets the waiter `id` registered with ``whenChanged(_:)``, if it was not resumed.
  package func remove(_ id: UInt64) {
    waiters[id] = nil
  }

  /// Something a test store may wait for changed: counts it and resumes the waiters.
  func changed() {
    changeCount &+= 1
    resume()
  }

  /// Counts a change whose waiters are resumed later (``resume()``), once the registry's
  /// bookkeeping for it is done, or not at all (an effect started).
  func countChange() {
    changeCount &+= 1
  }

  /// Resumes, once, every waiter registered now.
  func resume() {
    guard !waiters.isEmpty else { return }
    let waiting = waiters
    waiters.removeAll()
    for waiter in waiting.values { waiter() }
  }
}
