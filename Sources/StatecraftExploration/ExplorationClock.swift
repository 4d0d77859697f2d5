import ConcurrencyExtras

/// The clock a feature's time-based effects run on while it is explored: it moves only when
/// exploration advances it, and it can resume the sleepers that are due at the same instant in an
/// order chosen from the seed.
///
/// Exploration puts one in `continuousClock` (and `suspendingClock`) for every session. Use it
/// yourself to replay a session step by step:
///
/// ```swift
/// let clock = ExplorationClock()
/// let store = withDependencies { $0.continuousClock = clock } operation: {
///   Store(initialState: Search.State()) { Search() }
/// }
/// store.send(.queryChanged("milk"))
/// await clock.advance(by: .milliseconds(300))
/// ```
///
/// With the default order, sleepers due at the same instant resume in the order they began to
/// sleep, as with swift-clocks' `TestClock`. A test that exploration generates for a session in
/// which they resumed in another order makes its clock with that order
/// (``init(orders:)``), so that the test replays the race as the session ran it.
public final class ExplorationClock: Clock, Sendable {
  /// A point in the clock's time: how long after its start.
  public struct Instant: InstantProtocol, Hashable, Sendable {
    /// The time since the clock started.
    public var offset: Duration

    /// The instant `offset` after the clock's start.
    public init(offset: Duration = .zero) { self.offset = offset }

    /// The instant `duration` later.
    public func advanced(by duration: Duration) -> Self { Self(offset: offset + duration) }

    /// The time from this instant to `other`.
    public func duration(to other: Self) -> Duration { other.offset - offset }

    /// Whether `lhs` is earlier than `rhs`.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.offset < rhs.offset }
  }

  private struct Sleeper {
    let id: UInt64
    let deadline: Instant
    let continuation: CheckedContinuation<Void, any Error>
  }

  private struct Storage {
    var now = Instant()
    var nextID: UInt64 = 0
    var sleepers: [Sleeper] = []
    var cancelledBeforeSleeping: Set<UInt64> = []
    /// The order seed of the sleepers due together at an offset from the start, when an
    /// advance gives none.
    var orders: [Duration: UInt64] = [:]
    /// The instants (offsets from the start) at which sleepers due together resumed in another
    /// order than the one they began to sleep in, and the seed of that order.
    var reorderings: [Duration: UInt64] = [:]
  }

  private let storage = LockIsolated(Storage())

  /// A clock at its start, with no one sleeping.
  ///
  /// - Parameter orders: For an instant (its offset from the clock's start) at which several
  ///   sleepers are due, the seed of the order to resume them in, as
  ///   ``advance(by:order:)``'s `order` does, when an advance passes that instant with the
  ///   default order. Exploration writes it into the test it generates for a session in which
  ///   sleepers due together resumed in another order:
  ///
  ///   ```swift
  ///   let clock = ExplorationClock(orders: [.milliseconds(500): 17])
  ///   ```
  public init(orders: [Duration: UInt64] = [:]) {
    storage.withValue { $0.orders = orders }
  }

  /// The instants (offsets from the clock's start) at which sleepers due together resumed in
  /// another order than the one they began to sleep in, with the seed of that order: what
  /// ``init(orders:)`` takes to resume them in that order again.
  public var reorderings: [Duration: UInt64] { storage.withValue { $0.reorderings } }

  /// The clock's time now.
  public var now: Instant { storage.withValue { $0.now } }

  /// The smallest step the clock takes: any.
  public var minimumResolution: Duration { .zero }

  /// How many tasks are sleeping on the clock.
  public var sleeperCount: Int { storage.withValue { $0.sleepers.count } }

  /// Suspends until the clock reaches `deadline` (at once if it has), or throws
  /// `CancellationError` when the task is cancelled.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let id = storage.withValue { storage in
      defer { storage.nextID += 1 }
      return storage.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let outcome: Result<Void, any Error>? = storage.withValue { storage in
          if storage.cancelledBeforeSleeping.remove(id) != nil {
            return .failure(CancellationError())
          }
          if deadline <= storage.now { return .success(()) }
          storage.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return nil
        }
        if let outcome { continuation.resume(with: outcome) }
      }
    } onCancel: {
      let continuation = storage.withValue { storage in
        guard let index = storage.sleepers.firstIndex(where: { $0.id == id }) else {
          storage.cancelledBeforeSleeping.insert(id)
          return CheckedContinuation<Void, any Error>?.none
        }
        return storage.sleepers.remove(at: index).continuation
      }
      continuation?.resume(throwing: CancellationError())
    }
  }

  /// Moves the clock forward by `duration`, resuming every sleeper whose deadline it passes, the
  /// earliest first, and letting the work each one resumes run before the next.
  ///
  /// ```swift
  /// await clock.advance(by: .seconds(1))
  /// ```
  ///
  /// - Parameters:
  ///   - duration: How far to move the clock.
  ///   - order: Where several sleepers are due at the same instant, the seed of the order to
  ///     resume them in: 0 resumes them in the order they began to sleep (or the order
  ///     ``init(orders:)`` gave for that instant); another seed resumes them in another order,
  ///     drawn from it and from nothing else (two sleepers: the reverse).
  /// - Returns: Whether sleepers due at the same instant resumed in another order than the one
  ///   they began to sleep in.
  @discardableResult
  @MainActor
  public func advance(by duration: Duration, order: UInt64 = 0) async -> Bool {
    await advance(by: duration, order: order, settle: { await Self.yield(times: 20) })
  }

  @MainActor
  func advance(
    by duration: Duration, order: UInt64, settle: @MainActor () async -> Void
  ) async -> Bool {
    let target = now.advanced(by: duration)
    var reordered = false
    while true {
      let (instant, due, seed): (Duration, [UInt64], UInt64) = storage.withValue { storage in
        guard let earliest = storage.sleepers.map(\.deadline).min(), earliest <= target else {
          return (.zero, [], 0)
        }
        storage.now = earliest
        let due = storage.sleepers.filter { $0.deadline == earliest }.map(\.id)
        return (earliest.offset, due, order != 0 ? order : storage.orders[earliest.offset] ?? 0)
      }
      guard !due.isEmpty else { break }
      var ordered = due
      if seed != 0 && ordered.count > 1 {
        // NB: each instant's order is drawn from the seed alone, so that a test advancing the
        // clock in other steps than the session did resumes them in the same order.
        var random = SeededRandom(seed: seed)
        for index in stride(from: ordered.count - 1, to: 0, by: -1) {
          ordered.swapAt(index, random.next(below: index + 1))
        }
        // NB: another order than the first, always: with two sleepers any seed but 0 reverses
        // them, so a race between two stays found when shrinking removes a third.
        if ordered == due { ordered.reverse() }
        reordered = true
        storage.withValue { $0.reorderings[instant] = seed }
      }
      for id in ordered {
        // NB: one at a time: a sleeper that the work of an earlier one cancelled is gone, and
        // its task has already seen its `CancellationError`.
        let continuation = storage.withValue { storage in
          storage.sleepers.firstIndex { $0.id == id }.map { storage.sleepers.remove(at: $0) }?
            .continuation
        }
        guard let continuation else { continue }
        continuation.resume()
        await settle()
      }
    }
    storage.withValue { $0.now = target }
    return reordered
  }

  @MainActor
  private static func yield(times: Int) async {
    for _ in 0..<times { await Task.yield() }
  }
}
