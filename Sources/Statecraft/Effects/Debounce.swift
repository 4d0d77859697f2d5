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
    debounce(id: id) { try await clock.sleep(for: duration) }
  }

  /// Delays this effect until `duration` has passed on `clock` without another effect being
  /// debounced under the same `id`: the form for a clock held as a dependency,
  /// `let clock: any Clock<Duration>`.
  ///
  /// NB: the generic form can't take an existential clock in a file that imports Foundation (the
  /// compiler then stops opening the existential), which is where most features live.
  public func debounce(
    id: some Hashable & Sendable,
    for duration: Duration,
    clock: any Clock<Duration>
  ) -> Self {
    debounce(id: id) { try await clock.sleep(for: duration) }
  }

  private func debounce(
    id: some Hashable & Sendable, wait: @escaping @Sendable () async throws -> Void
  ) -> Self {
    // NB: `isNone` debounces still cancel a waiting effect: a burst ending in `.none` runs nothing.
    Self.concatenate([Self.run { _ in try await wait() }, self])
      .cancellable(id: id, cancelInFlight: true)
  }
}
