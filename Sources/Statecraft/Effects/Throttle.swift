import ConcurrencyExtras

extension Effect {
  /// Runs at most one effect per `interval` under `id`.
  ///
  /// The first effect throttled under an id starts at once and opens a window of `interval`.
  /// Effects throttled while the window is open are held back: at the end of the window the
  /// latest of them (`latest: true`) or the first of them (`latest: false`) starts and opens the
  /// next window; the others never run. `cancel(id:)` with the same id closes the window and
  /// drops what is held back.
  ///
  /// ```swift
  /// case .scrolled(let offset):
  ///   return .send(.savePosition(offset))
  ///     .throttle(id: CancelID.save, for: .seconds(1), clock: clock, latest: true)
  /// ```
  public func throttle<C: Clock<Duration>>(
    id: some Hashable & Sendable,
    for interval: Duration,
    clock: C,
    latest: Bool
  ) -> Self {
    throttle(id: id, for: interval, latest: latest) { try await clock.sleep(for: $0) }
  }

  /// Throttles this effect on `clock`: the form for a clock held as a dependency,
  /// `let clock: any Clock<Duration>` (as for `debounce`).
  public func throttle(
    id: some Hashable & Sendable,
    for interval: Duration,
    clock: any Clock<Duration>,
    latest: Bool
  ) -> Self {
    throttle(id: id, for: interval, latest: latest) { try await clock.sleep(for: $0) }
  }

  private func throttle(
    id: some Hashable & Sendable, for interval: Duration, latest: Bool,
    sleep: @escaping @Sendable (Duration) async throws -> Void
  ) -> Self {
    Self(
      operation: .throttle(
        id: AnyHashableSendable(id), interval: interval, sleep: sleep, latest: latest, self))
  }
}
