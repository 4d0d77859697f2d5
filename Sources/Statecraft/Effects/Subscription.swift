import ConcurrencyExtras

extension Effect {
  /// An effect that subscribes to a source synchronously, on the main actor, when the store
  /// starts it: the engine hook behind `Effect.publisher` (StatecraftCombine).
  ///
  /// `subscribe` runs while the store is still busy with the action that returned the effect, so
  /// what the source sends during the subscription (a `Just`, a sequence, a subject's current
  /// value) is reduced before that action's `send` returns, and a hot source's later values are
  /// never missed. Until the source calls ``EffectSubscriber/finish()`` the subscription counts as
  /// a running effect: it joins the `StoreTask` of its action, its cancellation ids and its child
  /// namespace, as a `run` task does. When the effect is cancelled (by id, with its child, with
  /// its `StoreTask`, or because the store was released) nothing the source sends afterwards is
  /// delivered, and the closure `subscribe` returned is called before the cancelling call
  /// returns.
  ///
  /// ```swift
  /// return .subscription { subscriber in
  ///   let token = center.observe { event in subscriber.send(.event(event)) }
  ///   return { token.cancel() }
  /// }
  /// ```
  package static func subscription(
    _ subscribe: @escaping @MainActor @Sendable (EffectSubscriber<Action>) -> @Sendable () -> Void
  ) -> Self {
    Self(operation: .subscribe(subscribe))
  }
}

/// What a subscription effect (``Effect/subscription(_:)``) sends its actions to.
@usableFromInline
package struct EffectSubscriber<Action>: Sendable {
  let deliver: @MainActor @Sendable (Action) -> Void
  let complete: @MainActor @Sendable () -> Void

  package init(
    send: @escaping @MainActor @Sendable (Action) -> Void,
    finish: @escaping @MainActor @Sendable () -> Void
  ) {
    self.deliver = send
    self.complete = finish
  }

  /// Sends `action` into the store, unless the subscription has finished or was cancelled. While
  /// the store is busy (during the subscription itself), the action is queued and reduced before
  /// the outer `send` returns.
  @MainActor
  package func send(_ action: Action) {
    deliver(action)
  }

  /// Ends the subscription: the effect stops counting as running.
  @MainActor
  package func finish() {
    complete()
  }
}

/// The state of one running subscription effect, shared by the store (main actor) and whoever
/// cancels its task (any thread).
final class EffectSubscription: Sendable {
  private struct State {
    var isFinished = false
    var cancel: (@Sendable () -> Void)?
    var continuation: CheckedContinuation<Void, Never>?
    var task: Task<Void, Never>?
  }

  private let state = LockIsolated(State())

  init() {}

  /// Whether values from the source are still delivered: not finished, and the task that stands
  /// for the subscription (once it exists) was not cancelled.
  // NB: the task is checked, not only the flag its cancellation handler sets, because a task
  // cancelled before it first runs calls the handler only once it runs.
  var isActive: Bool {
    state.withValue { !$0.isFinished && !($0.task?.isCancelled ?? false) }
  }

  /// Whether the source finished while it was being subscribed to.
  var isFinished: Bool { state.withValue(\.isFinished) }

  /// Keeps what cancels the source, and the task that stands for the subscription.
  func running(cancel: @escaping @Sendable () -> Void, task: Task<Void, Never>?) {
    let isCancelled = state.withValue { state in
      state.cancel = cancel
      state.task = task
      return state.isFinished
    }
    if isCancelled { cancel() }
  }

  /// The source completed.
  func finish() {
    let continuation = state.withValue { state in
      state.isFinished = true
      state.cancel = nil
      return state.continuation.take()
    }
    continuation?.resume()
  }

  /// The effect was cancelled: cancels the source.
  func cancel() {
    let (continuation, cancel) = state.withValue { state in
      state.isFinished = true
      return (state.continuation.take(), state.cancel.take())
    }
    cancel?()
    continuation?.resume()
  }

  /// Suspends until the source finishes; cancelling the calling task cancels the source.
  func wait() async {
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let isFinished = state.withValue { state in
          if state.isFinished { return true }
          state.continuation = continuation
          return false
        }
        if isFinished { continuation.resume() }
      }
    } onCancel: {
      cancel()
    }
  }
}
