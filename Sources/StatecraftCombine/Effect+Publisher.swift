import ConcurrencyExtras
import Statecraft

extension Effect {
  /// An effect that sends every value `publisher` emits, until it finishes or the effect is
  /// cancelled (cancelling the subscription).
  ///
  /// ```swift
  /// case .onAppear:
  ///   return .publisher(locationManager.updates.map(Action.locationChanged))
  /// ```
  public static func publisher<P: Publisher>(_ publisher: P) -> Self
  where P.Output == Action, P.Failure == Never, Action: Sendable {
    // NB: the publisher is subscribed once, from this effect's task, and not touched again.
    let publisher = UncheckedSendable(publisher.eraseToAnyPublisher())
    return .run { send in
      for await action in publisher.value.values {
        await send(action)
      }
    }
  }
}
