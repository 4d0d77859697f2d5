import Observation

/// Keeps an ``Store/observe(_:)`` closure running; cancel it, or release it, to stop.
@MainActor
public final class ObserveToken: Hashable {
  private var operation: (@MainActor (ObserveToken) -> Void)?

  /// How many times the closure ran: a key path read by an earlier run no longer re-runs it.
  private(set) var runs: UInt64 = 0
  /// Whether a run is scheduled for the end of the current batch.
  private var isScheduled = false

  /// The `observe` closure running now: what it reads through a store registers with it, not
  /// with Observation (see `ObservedValue.read(_:)`).
  @usableFromInline static var current: ObserveToken?

  init(_ operation: @escaping @MainActor (ObserveToken) -> Void) {
    self.operation = operation
  }

  /// Whether ``cancel()`` was called.
  public var isCancelled: Bool { operation == nil }

  /// Stops the observation: the closure will not run again.
  public func cancel() {
    operation = nil
  }

  func run() {
    isScheduled = false
    operation?(self)
  }

  /// Runs the closure again after the current batch (once, whatever changed).
  func schedule(in runtime: StoreRuntime) {
    guard !isScheduled, !isCancelled else { return }
    isScheduled = true
    runtime.observers.schedule(self)
  }

  /// Runs `body` as a run of the closure: the store reads it makes register with this token.
  func tracking<T>(_ body: () -> T) -> T {
    runs &+= 1
    let previous = Self.current
    Self.current = self
    defer { Self.current = previous }
    return body()
  }

  nonisolated public static func == (lhs: ObserveToken, rhs: ObserveToken) -> Bool {
    lhs === rhs
  }

  nonisolated public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}

extension Store {
  /// Runs `apply` now, and again after each batch in which something it read changed.
  ///
  /// `apply` receives this store; what it reads through it (`store.count`) is what is observed.
  /// It runs on the main actor, once per batch at most, after the batch's state is final.
  ///
  /// ```swift
  /// let token = store.observe { store in
  ///   label.text = "\(store.count)"
  /// }
  /// ```
  ///
  /// - Returns: A token that keeps the observation alive: it stops when the token is cancelled
  ///   or released.
  public func observe(_ apply: @escaping @MainActor (Store) -> Void) -> ObserveToken {
    // NB: the token holds neither the store nor its runtime: an observation must not keep a
    // released store's effects running.
    let token = ObserveToken { [weak self, weak runtime = core.runtime] token in
      guard let self, let runtime else {
        token.cancel()
        return
      }
      // NB: what `apply` reads through a store registers with the token (a store tells it of a
      // change directly, after the batch); Observation still tracks anything else it reads (a
      // row store's presence, another observable object). Going through Observation for a
      // store's fields cost a re-rendering observer most of a send: the registrar's lock and
      // tables at each read, at each change and at each cancellation of the tracking.
      token.tracking {
        withObservationTracking {
          apply(self)
        } onChange: { [weak token, weak runtime] in
          MainActor.assumeIsolated {
            guard let token, let runtime else { return }
            token.schedule(in: runtime)
          }
        }
      }
    }
    token.run()
    return token
  }
}

/// An `observe` closure's token, held weakly by what it read.
struct WeakObserveToken {
  weak var value: ObserveToken?
  init(_ value: ObserveToken) { self.value = value }
}
