/// An object whose lifetime bounds what it observes of a store: a view controller or a view.
///
/// ```swift
/// extension CounterViewController: StoreObserving {}
///
/// override func viewDidLoad() {
///   super.viewDidLoad()
///   observe(store) { controller, store in
///     controller.countLabel.text = "\(store.count)"  // re-runs when `count` changes only
///   }
/// }
/// ```
///
/// On Apple platforms `UIViewController`, `UIView`, `NSViewController` and `NSView` already
/// conform. The observation ends when the object is released, when the returned token is
/// cancelled, or when the store is released.
public protocol StoreObserving: AnyObject {}

extension StoreObserving {
  /// Runs `apply` now, and again after each batch in which something it read from `store`
  /// changed, for as long as this object lives.
  ///
  /// `apply` receives this object and the store: use them rather than capturing `self`, which
  /// would let the store keep this object alive.
  @MainActor
  @discardableResult
  public func observe<State, Action>(
    _ store: Store<State, Action>,
    _ apply: @escaping @MainActor (Self, Store<State, Action>) -> Void
  ) -> ObserveToken {
    store.observe(self, apply)
  }
}

extension Store {
  /// Runs `apply` now, and again after each batch in which something it read changed, for as
  /// long as `owner` lives: ``observe(_:)`` without a token to keep.
  ///
  /// ```swift
  /// store.observe(label) { label, store in label.text = "\(store.count)" }
  /// ```
  ///
  /// The store holds `owner` weakly and keeps the observation until the first batch after
  /// `owner` is released (or the token is cancelled). `apply` receives `owner`: capturing it
  /// instead would keep it alive as long as the store.
  @discardableResult
  public func observe<Owner: AnyObject>(
    _ owner: Owner,
    _ apply: @escaping @MainActor (Owner, Store) -> Void
  ) -> ObserveToken {
    let token = observe { [weak owner] store in
      guard let owner else { return }
      apply(owner, store)
    }
    // NB: the runtime keeps the token, not the owner: the token is dropped at the first batch
    // after the owner has gone, and with the runtime when the store is released.
    core.runtime.observers.addStreamObserver(
      publish: { [weak owner] in
        guard owner != nil, !token.isCancelled else {
          token.cancel()
          return false
        }
        return true
      },
      finish: {}
    )
    return token
  }
}
