import ConcurrencyExtras

/// The source of presentation and stack element ids: one counter for the process, so an id is
/// never given twice, in any store, and a later id is always greater.
// NB: a process-wide counter rather than one per store: a state is made before the store that will
// hold it (an initial state, a state built in a reducer), and its ids must never meet another
// state's ids in the store it ends up in. The lock is taken once per presentation or push.
enum NavigationIDCounter {
  private static let lastGiven = LockIsolated<UInt64>(0)

  /// The last id given (0 before the first).
  static var last: UInt64 { lastGiven.value }

  /// The next id: greater than every id given before it.
  static func next() -> UInt64 {
    lastGiven.withValue {
      $0 += 1
      return $0
    }
  }
}
