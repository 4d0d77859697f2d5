/// An object that renders a store's state imperatively (a UIKit view controller): the role of
/// AsyncReactorKit's `Store` protocol.
///
/// ```swift
/// final class CounterViewController: UIViewController, StateSubscriber {
///   let store = Store(initialState: CounterReactor.State(), reactor: CounterReactor())
///
///   override func viewDidLoad() {
///     super.viewDidLoad()
///     store.subscribe(self)
///   }
///
///   func state(_ state: CounterReactor.State) {
///     countLabel.text = "\(state.count)"
///     state.$message.updated { [weak self] message in self?.showAlert(message) }
///   }
/// }
/// ```
@MainActor
public protocol StateSubscriber<State>: AnyObject {
  /// The state the subscriber renders.
  associatedtype State
  /// Receives the state: once when subscribing, then after every batch of actions.
  func state(_ state: State)
}

/// A subscription of a ``StateSubscriber`` to a store; it ends when the subscriber is released,
/// when ``cancel()`` is called, or when the store is released.
@MainActor
public final class StoreSubscription {
  /// Whether ``cancel()`` was called.
  public private(set) var isCancelled = false

  nonisolated init() {}

  /// Stops delivering states to the subscriber.
  public func cancel() {
    isCancelled = true
  }
}

extension Store {
  /// Delivers the state to `subscriber` now and after every batch of actions, on the main actor.
  ///
  /// The store holds the subscriber weakly. Actions the subscriber sends from its callback are
  /// queued and reduced after the callback returns. Inside the callback, ``Pulse/updated(_:)``
  /// runs only for pulses assigned since this subscriber last saw them.
  @discardableResult
  public func subscribe<Subscriber: StateSubscriber<State>>(
    _ subscriber: Subscriber
  ) -> StoreSubscription {
    let subscription = StoreSubscription()
    let memory = PulseMemory()
    let state = core.state
    memory.withCurrent { subscriber.state(state) }
    core.runtime.observers.addStreamObserver(
      publish: { [weak self, weak subscriber] in
        guard !subscription.isCancelled, let self, let subscriber else { return false }
        let state = self.core.state
        memory.withCurrent { subscriber.state(state) }
        return true
      },
      finish: {}
    )
    return subscription
  }
}
