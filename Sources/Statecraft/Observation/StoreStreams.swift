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
    makeStream(of: Element.self, initial: initial, bufferingNewest: limit) { state, continuation in
      if let element = next(state) { continuation.yield(element) }
    }
  }

  /// A stream of `initial`, then of what `publish` yields after each batch, keeping at most
  /// `limit` unread elements (the newest). It ends when the store is released, and the store
  /// stops calling `publish` once the reader has gone.
  func makeStream<Element: Sendable>(
    of _: Element.Type,
    initial: Element? = nil,
    bufferingNewest limit: Int,
    publish: @escaping @MainActor (State, AsyncStream<Element>.Continuation) -> Void
  ) -> AsyncStream<Element> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Element.self, bufferingPolicy: .bufferingNewest(limit))
    let isTerminated = LockIsolated(false)
    continuation.onTermination = { _ in isTerminated.setValue(true) }
    if let initial { continuation.yield(initial) }
    core.runtime.observers.addStreamObserver(
      publish: { [weak self] in
        guard !isTerminated.value else { return false }
        guard let self else {
          continuation.finish()
          return false
        }
        publish(self.core.state, continuation)
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
    let source = LatestState(core.state, isEqual: equalityCheck(for: State.self))
    source.startReading = { [weak self] source in
      guard let self else { return }
      source.read(self.core.state)
      // NB: the store's observer holds the source weakly: releasing the stream removes it.
      self.core.runtime.observers.addStreamObserver(
        publish: { [weak self, weak source] in
          guard let source else { return false }
          guard let self else {
            source.finish()
            return false
          }
          return source.publish(self.core.state)
        },
        finish: { [weak source] in source?.finish() }
      )
    }
    stateStreams.removeAll { $0.value == nil }
    stateStreams.append(WeakStateStream(source))
    return AsyncStream(
      unfolding: { await source.next() },
      onCancel: { Task { @MainActor in source.cancel() } })
  }
}

/// A ``Store/states`` stream's end: what its reader gets next, the latest state, read on demand.
///
/// NB: a stream nobody reads costs a send nothing. A stream built on `AsyncStream.Continuation`
/// paid, at every batch, the continuation's lock and the run-time lookups of its generic storage's
/// metadata (the store's code is not specialized): about 40 % of a send. Until its first read,
/// this stream only holds the store weakly, and is told the store's last state if the store is
/// released first; from its first read on, it is told each batch's state. The semantics are those
/// of a stream buffering the newest element: the state at subscription or, once batches changed
/// it, the latest state; then, for each read, the state after the latest unread batch that
/// changed it (`==` where `State` is `Equatable`; every batch otherwise).
@MainActor
final class LatestState<State: Sendable>: StateStream {
  /// The state after the latest batch (or at subscription, or at the first read).
  private var latest: State
  /// Whether `latest` is unread: true until the first read, then after a batch that changed the
  /// state.
  private var hasUnread = true
  private var isRead = false
  private var isFinished = false
  private let isEqual: ((State, State) -> Bool)?
  private var reader: CheckedContinuation<State?, Never>?
  /// Called at the first read while the store is alive: reads the state, and observes batches.
  var startReading: ((LatestState) -> Void)?

  init(_ state: State, isEqual: ((State, State) -> Bool)?) {
    self.latest = state
    self.isEqual = isEqual
  }

  /// The state now, at the first read: the newest state a buffering stream would hold (a batch
  /// that left an `Equatable` state equal leaves an equal state).
  func read(_ state: State) {
    latest = state
  }

  /// The state after a batch, once the stream is read; returns false once the stream has ended.
  func publish(_ state: State) -> Bool {
    if isFinished { return false }
    // NB: compared with the last state the stream gave or holds, as a stream that yields each
    // change (and keeps the newest) would.
    if let isEqual, isEqual(latest, state) { return true }
    latest = state
    if let reader {
      self.reader = nil
      hasUnread = false
      reader.resume(returning: state)
    } else {
      hasUnread = true
    }
    return true
  }

  /// The store was released before the stream was read: its last state is the stream's last.
  func storeReleased(lastState: Any) {
    if !isRead, let state = lastState as? State { latest = state }
    startReading = nil
    finish()
  }

  /// The store tree was released: the stream ends once its unread state is read.
  func finish() {
    isFinished = true
    if let reader {
      self.reader = nil
      reader.resume(returning: nil)
    }
  }

  /// The reading task was cancelled: the stream ends.
  func cancel() {
    hasUnread = false
    finish()
  }

  func next() async -> State? {
    if !isRead {
      isRead = true
      if let startReading {
        self.startReading = nil
        startReading(self)
      }
    }
    if hasUnread {
      hasUnread = false
      return latest
    }
    if isFinished || Task.isCancelled { return nil }
    return await withCheckedContinuation { reader = $0 }
  }
}

/// A `states` stream not yet read, told its store's last state when the store is released.
@MainActor
protocol StateStream: AnyObject, Sendable {
  func storeReleased(lastState: Any)
}

struct WeakStateStream: Sendable {
  weak var value: (any StateStream)?
  init(_ value: any StateStream) { self.value = value }
}

extension Store {
  /// Runs `publish` after each batch until it returns false, and `finish` when the store tree
  /// is released: the hook other Statecraft products build their streams on.
  package func onPublish(
    _ publish: @escaping @MainActor () -> Bool,
    finish: @escaping @MainActor () -> Void
  ) {
    core.runtime.observers.addStreamObserver(publish: publish, finish: finish)
  }
}
