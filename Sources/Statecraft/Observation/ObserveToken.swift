import Observation

/// Keeps an ``Store/observe(_:)`` closure running; cancel it, or release it, to stop.
@MainActor
public final class ObserveToken: Hashable {
  private var operation: (@MainActor (ObserveToken) -> Void)?

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
    operation?(self)
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
      withObservationTracking {
        apply(self)
      } onChange: { [weak token, weak runtime] in
        MainActor.assumeIsolated {
          guard let token, !token.isCancelled else { return }
          runtime?.schedule(token)
        }
      }
    }
    token.run()
    return token
  }
}
