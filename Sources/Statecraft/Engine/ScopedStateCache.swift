// Owns the state a scoped store shows between two changes of its root's state: each scoped core
// keeps the state it last read through to its root, so that reading a child store again (a view
// reading several fields, or re-rendering) costs a field access instead of the parent's
// projections (key paths, case paths, a row looked up by id). Every filled cache is emptied
// before and after each write of a root's state, after a root publishes, and when a shared value
// publishes a change (a child state computed from a shared value's fields would be stale).

/// The state a scoped core last read through to the root, while the root's state has not been
/// written since.
///
/// NB: the cache holds a copy of a part of the root's state only between two writes of the
/// root's state, so that the reducer's in-place writes never find that storage shared (which
/// would copy it).
@MainActor
@usableFromInline
package final class ScopedStateCache<State>: AnyScopedStateCache {
  // NB: `@exclusivity(unchecked)`: read at every read of a child store, on the main actor; no
  // access is held across a call.
  @usableFromInline @exclusivity(unchecked) var value: State?

  /// Keeps `state` until the root's state is next written.
  func fill(_ state: State, in caches: ScopedStateCaches) {
    value = state
    caches.filled(self)
  }

  override func empty() {
    value = nil
  }
}

/// A cache whatever its state type, as the root's list holds it.
@MainActor
@usableFromInline
package class AnyScopedStateCache {
  func empty() {}
}

/// The caches filled since a root's state was last written, whatever their store tree (one list
/// for all, so that a shared value's change, which may concern any tree, empties them all).
@MainActor
final class ScopedStateCaches {
  static let all = ScopedStateCaches()

  // NB: `@exclusivity(unchecked)`: checked at every action; `emptyAll()` holds no access across
  // a call that could fill a cache.
  @exclusivity(unchecked) private var filledCaches: [AnyScopedStateCache] = []

  var isEmpty: Bool { filledCaches.isEmpty }

  func filled(_ cache: AnyScopedStateCache) {
    filledCaches.append(cache)
  }

  /// Empties every filled cache: the root's state is about to change, or just changed.
  func emptyAll() {
    let caches = filledCaches
    filledCaches.removeAll(keepingCapacity: true)
    for cache in caches { cache.empty() }
  }
}
