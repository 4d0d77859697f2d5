import ConcurrencyExtras

extension Store {
  /// The value at `keyPath` now, and then each time it changes (compared with `==`).
  ///
  /// The stream keeps at most the latest unread value: a slow reader skips intermediate values
  /// and memory stays flat when nobody reads. It ends when the store is released.
  ///
  /// ```swift
  /// for await count in store.values(\.count) {
  ///   print(count)
  /// }
  /// ```
  public func values<Value: Equatable & Sendable>(
    _ keyPath: KeyPath<State, Value>
  ) -> AsyncStream<Value> {
    var last = core.state[keyPath: keyPath]
    return makeStream(initial: last) { state in
      let value = state[keyPath: keyPath]
      guard value != last else { return nil }
      last = value
      return value
    }
  }

  /// A stream of `initial`, then of what `next` returns (when not nil) after each batch,
  /// keeping at most `limit` unread elements (the newest).
  func makeStream<Element: Sendable>(
    initial: Element?,
    bufferingNewest limit: Int = 1,
    next: @escaping @MainActor (State) -> Element?
  ) -> AsyncStream<Element> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Element.self, bufferingPolicy: .bufferingNewest(limit))
    let isTerminated = LockIsolated(false)
    continuation.onTermination = { _ in isTerminated.setValue(true) }
    if let initial { continuation.yield(initial) }
    core.runtime.addStreamObserver(
      publish: { [weak self] in
        guard !isTerminated.value else { return false }
        guard let self else {
          continuation.finish()
          return false
        }
        if let element = next(self.core.state) {
          continuation.yield(element)
        }
        return true
      },
      finish: { continuation.finish() }
    )
    return stream
  }
}

extension Store where State: Sendable {
  /// The state now, and then after each batch (skipping batches that left an `Equatable` state
  /// unchanged).
  ///
  /// The stream keeps at most the latest unread state. It ends when the store is released.
  public var states: AsyncStream<State> {
    let isEqual = equalityCheck(for: State.self)
    var last: State? = isEqual == nil ? nil : core.state
    return makeStream(initial: core.state) { state in
      if let isEqual, let previous = last {
        guard !isEqual(previous, state) else { return nil }
        last = state
      }
      return state
    }
  }
}

extension Store {
  /// Runs `publish` after each batch until it returns false, and `finish` when the store tree
  /// is released: the hook other Statecraft products build their streams on.
  package func onPublish(
    _ publish: @escaping @MainActor () -> Bool,
    finish: @escaping @MainActor () -> Void
  ) {
    core.runtime.addStreamObserver(publish: publish, finish: finish)
  }
}
