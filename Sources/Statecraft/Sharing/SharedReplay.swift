// Owns the isolation of a replay: while a debugging tool recomputes a past step by running the
// reducer again on recorded actions (the Inspector's timeline), the reducer's reads of shared
// values see the values they had at that step, and its writes go to the replay's own copies:
// never to the live values, their observers or their files. Only the replaying task sees the
// copies: an effect writing a shared value on another thread meanwhile writes the live value.

/// The copies of shared values that one replay reads and writes.
///
/// NB: `@unchecked Sendable`: a replay is made, used and dropped by one synchronous call on one
/// thread (`isolating(from:_:)`); other threads never reach it, because the task-local that
/// holds it is bound only for that call.
package final class SharedReplay: @unchecked Sendable {
  private var values: [ObjectIdentifier: (reference: any AnySharedReference, value: Any)] = [:]
  /// The references whose reads were sent to the replay's copies, to be let go at its end.
  private var marked: [any AnySharedReference] = []
  /// What a marked reference holds as its tracker while the replay runs: it sends reads down
  /// the path that looks for a replay (see `SharedReference.read`), and records nothing of use.
  private let marker = SharedChangeTracker()

  /// The replay running on this task, if any.
  @TaskLocal static var current: SharedReplay?

  private init() {}

  /// Runs `body` (a reducer recomputing past steps) with every shared value read from a copy
  /// that starts at its value in `snapshot` (or its live value, for one the snapshot doesn't
  /// hold), and every write going to that copy.
  ///
  /// - Returns: What `body` returned, and the copies' values at its end: the shared values of
  ///   the state it computed.
  package static func isolating<R>(
    from snapshot: SharedSnapshot?, _ body: () throws -> R
  ) rethrows -> (result: R, shared: SharedSnapshot) {
    let replay = SharedReplay()
    if let snapshot {
      for (reference, value) in snapshot.entries { replay.set(value, for: reference) }
    }
    defer { replay.end() }
    let result = try $current.withValue(replay, operation: body)
    return (result, SharedSnapshot(entries: replay.values.values.map { ($0.reference, $0.value) }))
  }

  /// The copy of `reference`'s value, if the replay has one.
  func value(of reference: AnyObject) -> Any? {
    values[ObjectIdentifier(reference)]?.value
  }

  /// Writes the copy of `reference`'s value.
  func set(_ value: Any, for reference: any AnySharedReference) {
    let id = ObjectIdentifier(reference)
    if values.updateValue((reference, value), forKey: id) == nil,
      reference.markForReplay(marker)
    {
      marked.append(reference)
    }
  }

  private func end() {
    for reference in marked { reference.unmarkForReplay(marker) }
    marked = []
  }
}
