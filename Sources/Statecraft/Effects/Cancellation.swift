import ConcurrencyExtras

extension Effect {
  /// Makes this effect cancellable by `id`.
  ///
  /// Every task this effect starts is registered under `id` in the store that runs it, inside
  /// the namespace of the feature instance that returned it: two rows of a `forEach` that use the
  /// same id don't cancel each other.
  ///
  /// ```swift
  /// case .searchQueryChanged(let query):
  ///   state.query = query
  ///   return .run { send in
  ///     await send(.results(try await api.search(query)))
  ///   }
  ///   .cancellable(id: CancelID.search, cancelInFlight: true)
  /// ```
  ///
  /// - Parameters:
  ///   - id: Any hashable, sendable value: an enum case of the feature is the usual choice.
  ///   - cancelInFlight: Cancel any effect already running under `id` before starting this one.
  public func cancellable(
    id: some Hashable & Sendable,
    cancelInFlight: Bool = false
  ) -> Self {
    if isNone && !cancelInFlight { return self }
    return Self(
      operation: .cancellable(
        id: AnyHashableSendable(id), cancelInFlight: cancelInFlight, self))
  }

  /// An effect that cancels every effect running under `id` in this feature instance.
  ///
  /// It runs synchronously when the store starts it: once the action that returned it has been
  /// reduced, the cancelled effects send nothing more.
  public static func cancel(id: some Hashable & Sendable) -> Self {
    Self(operation: .cancel(id: AnyHashableSendable(id)))
  }
}
