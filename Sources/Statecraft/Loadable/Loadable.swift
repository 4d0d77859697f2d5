/// A value loaded by an effect: idle, loading, loaded or failed (GoodReactor's `fetch`).
///
/// ```swift
/// struct State { var user: Loadable<User> = .idle }
/// enum Action { case refresh, userLoaded(Result<User, any Error>), cancel }
///
/// case .refresh:
///   return .load(&state.user, id: CancelID.user) { try await api.user() } completion: {
///     .userLoaded($0)
///   }
/// case .userLoaded(let result):
///   state.user.finish(with: result)
///   return .none
/// case .cancel:
///   return .cancelLoad(&state.user, id: CancelID.user)
/// ```
///
/// A *silent* load keeps showing the value it has (no loading state) until the new one
/// arrives: a background refresh.
public enum Loadable<Value> {
  /// Nothing loaded, nothing loading.
  case idle
  /// Loading; `previous` is the value loaded before, if any.
  case loading(previous: Value?)
  /// Loaded.
  case success(Value)
  /// The last load failed; `previous` is the value loaded before, if any.
  case failure(any Error, previous: Value?)

  /// The loaded value, or the previous one while loading or after a failure.
  public var value: Value? {
    switch self {
    case .idle: return nil
    case .loading(let previous): return previous
    case .success(let value): return value
    case .failure(_, let previous): return previous
    }
  }

  /// Whether a (non-silent) load is in flight.
  public var isLoading: Bool {
    if case .loading = self { return true }
    return false
  }

  /// The error of the last load, if it failed.
  public var error: (any Error)? {
    if case .failure(let error, _) = self { return error }
    return nil
  }

  /// Marks a load as started: `.loading`, or unchanged for a silent load of a present value.
  public mutating func start(silent: Bool = false) {
    if silent, value != nil { return }
    self = .loading(previous: value)
  }

  /// Records the outcome of a load.
  public mutating func finish(with result: Result<Value, any Error>) {
    switch result {
    case .success(let value): self = .success(value)
    case .failure(let error): self = .failure(error, previous: value)
    }
  }

  /// Records that the load was cancelled: a loading value returns to `.idle`; a loaded value
  /// (a silent refresh) stays as it is.
  public mutating func cancel() {
    if isLoading { self = .idle }
  }

  /// Applies an update sent by ``Effect/load(id:silent:operation:update:)``.
  public mutating func apply(_ update: LoadableUpdate<Value>) {
    switch update {
    case .started(let silent): start(silent: silent)
    case .finished(let result): finish(with: result)
    case .cancelled: cancel()
    }
  }
}

/// A change to a ``Loadable``, carried by a mutation: how a ``Reactor`` (whose `mutate` cannot
/// change the state) drives a load.
///
/// ```swift
/// enum Mutation { case profile(LoadableUpdate<Profile>) }
///
/// func mutate(state: State, action: Action) -> Effect<Mutation> {
///   switch action {
///   case .refresh:
///     return .load(id: CancelID.profile) { try await api.profile() } update: { .profile($0) }
///   case .cancel:
///     return .cancelLoad(id: CancelID.profile) { .profile($0) }
///   }
/// }
///
/// func reduce(state: inout State, mutation: Mutation) {
///   switch mutation {
///   case .profile(let update): state.profile.apply(update)
///   }
/// }
/// ```
public enum LoadableUpdate<Value> {
  /// A load started (silently: keep showing the current value).
  case started(silent: Bool)
  /// A load finished.
  case finished(Result<Value, any Error>)
  /// The load was cancelled.
  case cancelled
}

extension LoadableUpdate: Sendable where Value: Sendable {}

extension Loadable: Sendable where Value: Sendable {}

extension Loadable: Equatable where Value: Equatable {
  /// Equal cases with equal values; failures compare their errors' descriptions.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    switch (lhs, rhs) {
    case (.idle, .idle): return true
    case (.loading(let lhs), .loading(let rhs)): return lhs == rhs
    case (.success(let lhs), .success(let rhs)): return lhs == rhs
    case (.failure(let lhsError, let lhs), .failure(let rhsError, let rhs)):
      return lhs == rhs && String(describing: lhsError) == String(describing: rhsError)
    default: return false
    }
  }
}

extension LoadableUpdate: Equatable where Value: Equatable {
  /// Two updates are equal when they are the same step with equal values; failures compare by
  /// their descriptions, as ``Loadable``'s do.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    switch (lhs, rhs) {
    case (.started(let lhs), .started(let rhs)): return lhs == rhs
    case (.finished(.success(let lhs)), .finished(.success(let rhs))): return lhs == rhs
    case (.finished(.failure(let lhs)), .finished(.failure(let rhs))):
      return String(describing: lhs) == String(describing: rhs)
    case (.cancelled, .cancelled): return true
    default: return false
    }
  }
}

extension Effect {
  /// Starts loading `loadable` (see ``Loadable/start(silent:)``) and returns the effect that
  /// loads it, cancelling any load in flight under `id`.
  ///
  /// The outcome comes back as `completion(result)`; apply it with
  /// ``Loadable/finish(with:)``. Cancellation sends nothing.
  public static func load<Value: Sendable>(
    _ loadable: inout Loadable<Value>,
    id: some Hashable & Sendable,
    silent: Bool = false,
    operation: @escaping @Sendable () async throws -> Value,
    completion: @escaping @Sendable (Result<Value, any Error>) -> Action
  ) -> Self {
    loadable.start(silent: silent)
    return .run { send in
      if let result = await loadResult(operation) { await send(completion(result)) }
    }
    .cancellable(id: id, cancelInFlight: true)
  }

  /// Sends `update(.started)` at once, then loads, cancelling any load in flight under `id`, and
  /// sends `update(.finished(result))`. Cancellation sends nothing more.
  public static func load<Value: Sendable>(
    id: some Hashable & Sendable,
    silent: Bool = false,
    operation: @escaping @Sendable () async throws -> Value,
    update: @escaping @Sendable (LoadableUpdate<Value>) -> Action
  ) -> Self {
    // NB: the whole sequence is cancellable, so a cancel sent before the load's task starts
    // still stops it.
    .concatenate(
      .send(update(.started(silent: silent))),
      .run { send in
        if let result = await loadResult(operation) { await send(update(.finished(result))) }
      }
    )
    .cancellable(id: id, cancelInFlight: true)
  }

  /// Cancels the load under `id` and sends `update(.cancelled)`.
  public static func cancelLoad<Value>(
    id: some Hashable & Sendable,
    update: (LoadableUpdate<Value>) -> Action
  ) -> Self {
    .merge(.cancel(id: id), .send(update(.cancelled)))
  }

  /// Cancels the load under `id` and returns `loadable` to idle (see ``Loadable/cancel()``).
  public static func cancelLoad<Value>(
    _ loadable: inout Loadable<Value>,
    id: some Hashable & Sendable
  ) -> Self {
    loadable.cancel()
    return .cancel(id: id)
  }
}

/// Runs a load: its result, or nil when it was cancelled.
private func loadResult<Value>(
  _ operation: @Sendable () async throws -> Value
) async -> Result<Value, any Error>? {
  do {
    return .success(try await operation())
  } catch {
    return Task.isCancelled ? nil : .failure(error)
  }
}
