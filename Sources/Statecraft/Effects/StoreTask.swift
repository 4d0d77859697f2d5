/// The work started by one `send`: every effect the action started, and everything those effects
/// sent in turn.
///
/// ```swift
/// await store.send(.refresh).finish()  // returns when the refresh, and what it sent, is done
/// ```
///
/// A send whose effects were all ``Effect/none`` returns a task that is already finished and
/// allocated nothing.
public struct StoreTask: Hashable, Sendable {
  package let group: EffectGroup?

  package init(_ group: EffectGroup?) {
    self.group = group
  }

  /// Waits for every effect this task tracks to finish, including effects started by actions
  /// they sent. Cancelling the waiting task cancels those effects.
  @MainActor
  public func finish() async {
    await group?.finish()
  }

  /// Cancels every effect this task tracks.
  @MainActor
  public func cancel() {
    group?.cancel()
  }

  /// Whether ``cancel()`` was called (or the task that awaited ``finish()`` was cancelled).
  @MainActor
  public var isCancelled: Bool {
    group?.isCancelled ?? false
  }

  /// Whether every effect this task tracks has finished.
  @MainActor
  public var hasFinished: Bool {
    group?.isEmpty ?? true
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.group === rhs.group
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(group.map(ObjectIdentifier.init))
  }
}
