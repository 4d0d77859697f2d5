import CasePathsCore
import Observation

extension Store {
  /// Calls `then` with a child store each time the optional state becomes non-nil, and `else`
  /// each time it becomes nil (and at once if it is nil): for UIKit code that pushes and pops a
  /// child screen.
  ///
  /// ```swift
  /// cancellable = store.scope(state: \.detail, action: \.detail).ifLet { [weak self] detail in
  ///   self?.navigationController?.pushViewController(DetailViewController(store: detail), animated: true)
  /// } else: { [weak self] in
  ///   self?.navigationController?.popToViewController(self!, animated: true)
  /// }
  /// ```
  ///
  /// Only presence is observed: `then` is not called again while the state stays non-nil. The
  /// child store shows its last state after the state becomes nil. Both closures run on the main
  /// actor after the batch that changed the presence, outside any observation.
  ///
  /// - Returns: A token that keeps the observation alive: it stops when the token is cancelled
  ///   or released, or when the store is released.
  public func ifLet<Wrapped>(
    then unwrap: @escaping @MainActor (Store<Wrapped, Action>) -> Void,
    else dismiss: @escaping @MainActor () -> Void = {}
  ) -> ObserveToken where State == Wrapped? {
    ifLet(state: \.self, action: { $0 }, then: unwrap, else: dismiss)
  }

  /// Calls `then` with a store of the optional state at `state` each time it becomes non-nil,
  /// and `else` each time it becomes nil (and at once if it is nil).
  ///
  /// ```swift
  /// cancellable = store.ifLet(state: \.detail, action: \.detail) { detail in
  ///   navigationController.pushViewController(DetailViewController(store: detail), animated: true)
  /// } else: {
  ///   navigationController.popToRootViewController(animated: true)
  /// }
  /// ```
  public func ifLet<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState?>,
    action toChildAction: CaseKeyPath<Action, ChildAction>,
    then unwrap: @escaping @MainActor (Store<ChildState, ChildAction>) -> Void,
    else dismiss: @escaping @MainActor () -> Void = {}
  ) -> ObserveToken {
    let embed = AnyCasePath(toChildAction)
    return ifLet(state: toChildState, action: { embed.embed($0) }, then: unwrap, else: dismiss)
  }

  /// Calls `then` with a store of the optional state at `state`, whose actions are embedded
  /// with `embed`, each time it becomes non-nil, and `else` each time it becomes nil (and at
  /// once if it is nil).
  public func ifLet<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState?>,
    action embed: @escaping (ChildAction) -> Action,
    then unwrap: @escaping @MainActor (Store<ChildState, ChildAction>) -> Void,
    else dismiss: @escaping @MainActor () -> Void = {}
  ) -> ObserveToken {
    var wasPresent: Bool?
    // NB: like `observe(_:)`, the token holds neither the store nor its runtime.
    let token = ObserveToken { [weak self, weak runtime = core.runtime] token in
      guard let self, let runtime else {
        token.cancel()
        return
      }
      let child = withObservationTracking {
        // NB: an optional scope observes only whether the state is present.
        self.scope(state: toChildState, action: embed)
      } onChange: { [weak token, weak runtime] in
        MainActor.assumeIsolated {
          guard let token, !token.isCancelled else { return }
          runtime?.observers.schedule(token)
        }
      }
      let isPresent = child != nil
      guard isPresent != wasPresent else { return }
      wasPresent = isPresent
      if let child {
        unwrap(child)
      } else {
        dismiss()
      }
    }
    token.run()
    return token
  }
}
