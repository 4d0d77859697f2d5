import ConcurrencyExtras
import Statecraft

extension Shared {
  /// A publisher of the value's changes: the new value after each change, by any holder, on the
  /// thread that made it (the main actor, for a reducer's write). It does not emit the current
  /// value when subscribed.
  ///
  /// ```swift
  /// $count.publisher
  ///   .sink { print("count is now", $0) }
  ///   .store(in: &cancellables)
  /// ```
  ///
  /// A derived shared value (`$settings.isOn`) emits its field after each change of the whole
  /// value. Writing the value from a subscriber is allowed: the subscribers see that change next.
  public var publisher: AnyPublisher<Value, Never> {
    sharedPublisher(observeChanges)
  }
}

extension SharedReader {
  /// A publisher of the value's changes, as `Shared.publisher`.
  public var publisher: AnyPublisher<Value, Never> {
    sharedPublisher(observeChanges)
  }
}

/// A publisher that starts observing a shared value's changes for each subscriber, and stops
/// when that subscriber cancels.
private func sharedPublisher<Value: Sendable>(
  _ observeChanges: @escaping (@escaping @Sendable (Value) -> Void) -> SharedSubscription
) -> AnyPublisher<Value, Never> {
  Deferred {
    // NB: @unchecked Sendable through `UncheckedSendable`: the subject is sent to from the thread
    // that changed the value, as a subject sent to from any thread is; Combine's subjects lock.
    let subject = UncheckedSendable(PassthroughSubject<Value, Never>())
    let subscription = observeChanges { subject.value.send($0) }
    return subject.value.handleEvents(receiveCancel: { subscription.cancel() })
  }
  .eraseToAnyPublisher()
}
