import ConcurrencyExtras
import Dispatch
import Foundation
import Statecraft

extension Effect {
  /// An effect that sends every value `publisher` emits, in order, until it finishes or the
  /// effect is cancelled (cancelling the subscription).
  ///
  /// The store subscribes synchronously, with unlimited demand, when it starts the effect (as
  /// TCA does):
  /// - values the publisher emits while it is subscribed to (`Just`, a sequence's publisher, a
  ///   `CurrentValueSubject`'s current value) are reduced before the `send` that started the
  ///   effect returns, and a publisher that completes then leaves no effect running;
  /// - a hot publisher's values sent after that `send` returns are all delivered, in order,
  ///   however many are sent in a row.
  ///
  /// Values emitted on the main actor (the main queue) are sent to the store at once: after
  /// `subject.send(value)` returns, the store has reduced it. Values emitted elsewhere are sent
  /// from a main-actor task, in the order they were emitted. Until the publisher
  /// completes, the effect counts as running: `await store.send(action).finish()` waits for it,
  /// and `cancellable(id:cancelInFlight:)` and `cancel(id:)` apply to it as to a `run`
  /// effect. Once it is cancelled, nothing the publisher emits reaches the store.
  ///
  /// ```swift
  /// case .onAppear:
  ///   return .publisher(locationManager.updates.map(Action.locationChanged))
  /// ```
  public static func publisher<P: Publisher>(_ publisher: P) -> Self
  where P.Output == Action, P.Failure == Never, Action: Sendable {
    // NB: the publisher is subscribed to once, on the main actor, and not touched again.
    let publisher = UncheckedSendable(publisher)
    return .subscription { subscriber in
      let inbox = MainActorInbox(subscriber)
      inbox.setSubscribing(true)
      let cancellable = publisher.value.sink(
        receiveCompletion: { @Sendable _ in inbox.receive(.finished) },
        receiveValue: { @Sendable action in inbox.receive(.value(action)) }
      )
      inbox.setSubscribing(false)
      // NB: `AnyCancellable.cancel()` may be called from any thread.
      let subscription = UncheckedSendable(cancellable)
      return { subscription.value.cancel() }
    }
  }
}

/// Hands what a publisher emits to a subscription effect on the main actor, in order: at once
/// when it is emitted on the main queue (or during the subscription), else from a main-actor
/// task.
private final class MainActorInbox<Action: Sendable>: Sendable {
  enum Event: Sendable {
    case value(Action)
    case finished
  }

  private struct State {
    var pending: [Event] = []
    var isDraining = false
  }

  private let subscriber: EffectSubscriber<Action>
  private let state = LockIsolated(State())
  /// The thread that is subscribing (on the main actor), while it is.
  // NB: set and cleared on the main actor, read by whatever thread the publisher emits on.
  private let subscribingThread = LockIsolated<ObjectIdentifier?>(nil)

  init(_ subscriber: EffectSubscriber<Action>) {
    self.subscriber = subscriber
  }

  /// Marks the current thread as subscribing (on the main actor), or clears the mark.
  func setSubscribing(_ isSubscribing: Bool) {
    subscribingThread.setValue(isSubscribing ? ObjectIdentifier(Thread.current) : nil)
  }

  func receive(_ event: Event) {
    let isOnMainActor =
      isOnMainQueue() || subscribingThread.value == ObjectIdentifier(Thread.current)
    let deliverNow = state.withValue { state in
      if isOnMainActor && !state.isDraining && state.pending.isEmpty { return true }
      state.pending.append(event)
      guard !state.isDraining else { return false }
      state.isDraining = true
      Task { @MainActor in self.drain() }
      return false
    }
    if deliverNow {
      MainActor.assumeIsolated { deliver(event) }
    }
  }

  @MainActor
  private func drain() {
    while true {
      let next: Event? = state.withValue { state in
        guard !state.pending.isEmpty else {
          state.isDraining = false
          return nil
        }
        return state.pending.removeFirst()
      }
      guard let next else { return }
      deliver(next)
    }
  }

  @MainActor
  private func deliver(_ event: Event) {
    switch event {
    case .value(let action): subscriber.send(action)
    case .finished: subscriber.finish()
    }
  }
}

/// Marks the main queue, so that code can tell it runs there even when the main queue is
/// drained by a thread other than the main thread (as test runners on Linux do).
private let mainQueueKey: DispatchSpecificKey<Bool> = {
  let key = DispatchSpecificKey<Bool>()
  DispatchQueue.main.setSpecific(key: key, value: true)
  return key
}()

/// Whether the caller runs on the main queue, where the main actor runs.
private func isOnMainQueue() -> Bool {
  Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueKey) == true
}
