/// Sends actions from an effect back into the store that runs it.
///
/// A `Send` is handed to the operation of `Effect.run(priority:operation:catch:)`.
/// Calls arrive on the main actor in the order they were made. Once the effect has been cancelled,
/// calls do nothing; once its operation has returned, calls are reported as misuse.
///
/// ```swift
/// return .run { send in
///   await send(.started)
///   let value = try await api.load()
///   await send(.loaded(value))
/// }
/// ```
@MainActor
public struct Send<Action>: Sendable {
  let deliver: @MainActor @Sendable (Action) -> Void

  /// Creates a `Send` from a closure; useful in tests of effect operations.
  public init(send: @escaping @MainActor @Sendable (Action) -> Void) {
    self.deliver = send
  }

  /// Sends `action` into the store, unless the effect that owns this `Send` was cancelled.
  public func callAsFunction(_ action: Action) {
    guard !Task.isCancelled else { return }
    deliver(action)
  }
}
