import ConcurrencyExtras

/// Delivers a reactor's routes to the coordinators listening through
/// ``Store/routes(_:fileID:filePath:line:column:)``.
///
/// Routes are published from the reducer, which the store runs on the main actor; the lock only
/// lets a stream that ends on another thread leave without a hop.
@usableFromInline
package final class RouteHub: Sendable {
  private struct Listener: Sendable {
    let deliver: @Sendable (any Sendable) -> Bool
    let finish: @Sendable () -> Void
  }

  private let listeners = LockIsolated<[UInt64: Listener]>([:])
  private let nextListener = LockIsolated<UInt64>(0)

  @usableFromInline
  package init() {}

  @usableFromInline
  func publish(_ route: any Sendable) {
    for (id, listener) in listeners.value where !listener.deliver(route) {
      listeners.withValue { _ = $0.removeValue(forKey: id) }
    }
  }

  /// Calls `deliver` with every route published from now on, synchronously, in order: how a
  /// test store records routes.
  package func onPublish(_ deliver: @escaping @Sendable (any Sendable) -> Void) {
    let id = nextListener.withValue { id in
      defer { id &+= 1 }
      return id
    }
    listeners.withValue {
      $0[id] = Listener(
        deliver: { route in
          deliver(route)
          return true
        },
        finish: {})
    }
  }

  func listen<Route: Sendable>(_: Route.Type) -> AsyncStream<Route> {
    let (stream, continuation) = AsyncStream.makeStream(of: Route.self)
    let id = nextListener.withValue { id in
      defer { id &+= 1 }
      return id
    }
    listeners.withValue {
      $0[id] = Listener(
        deliver: { route in
          guard let route = route as? Route else { return true }
          if case .terminated = continuation.yield(route) { return false }
          return true
        },
        finish: { continuation.finish() }
      )
    }
    return stream
  }

  deinit {
    for listener in listeners.value.values { listener.finish() }
  }
}

extension Store {
  /// The routes the store's reactor leads to, for a coordinator (GoodReactor's `navigate`).
  ///
  /// Each call returns a new stream that receives every route published after the call, in
  /// order, without dropping any. It ends when the store is released.
  ///
  /// ```swift
  /// Task {
  ///   for await route in store.routes(AppRoute.self) {
  ///     coordinator.show(route)
  ///   }
  /// }
  /// ```
  ///
  /// Calling it on a store that does not run a reactor is reported as an issue at the call, and
  /// returns a stream that has ended.
  public func routes<Route: Sendable>(
    _ type: Route.Type = Route.self,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> AsyncStream<Route> {
    guard let hub = core.runtime.attachment(RouteHub.self) else {
      SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        .report(Diagnostics.routesWithoutReactor)
      return AsyncStream { $0.finish() }
    }
    return hub.listen(type)
  }
}
