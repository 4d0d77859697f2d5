extension Effect {
  /// Delays this effect until `duration` has passed without another effect being debounced
  /// under the same `id`.
  ///
  /// Each new debounced effect with the same id cancels the waiting one, so only the last of a
  /// burst runs. Pass a `TestClock` in tests to control time.
  ///
  /// ```swift
  /// case .queryChanged(let query):
  ///   state.query = query
  ///   return .run { send in await send(.search(query)) }
  ///     .debounce(id: CancelID.search, for: .milliseconds(300), clock: clock)
  /// ```
  public func debounce<C: Clock<Duration>>(
    id: some Hashable & Sendable,
    for duration: Duration,
    clock: C
  ) -> Self {
    // NB: `isNone` debounces still cancel a waiting effect: a burst ending in `.none` runs nothing.
    let wait = Self.run { _ in try await clock.sleep(for: duration) }
    return Self.concatenate([wait, self]).cancellable(id: id, cancelInFlight: true)
  }
}
