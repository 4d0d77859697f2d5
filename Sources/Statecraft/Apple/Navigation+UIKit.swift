#if canImport(UIKit) && !os(watchOS)
  import CasePathsCore
  import UIKit

  extension UIViewController {
    /// Presents the controller `content` makes for each child presented at `state`, and
    /// dismisses it when that presentation ends (a new presentation replaces it): the decisions
    /// are ``Store/observePresentation(_:action:present:dismiss:)``'s.
    ///
    /// ```swift
    /// token = present(store: store, state: \.$detail, action: \.detail) { detail in
    ///   DetailViewController(store: detail)
    /// }
    /// ```
    ///
    /// Keep the token while the controller shows the store: the presentation stops following
    /// the store when it is released (so the result is not discardable). A controller the user
    /// dismisses itself (a swipe) should send `.dismiss` from its presentation controller's
    /// delegate.
    public func present<State, Action, ChildState, ChildAction>(
      store: Store<State, Action>,
      state toPresentation: KeyPath<State, PresentationState<ChildState>>,
      action toPresentationAction: CaseKeyPath<Action, PresentationAction<ChildAction>>,
      animated: Bool = true,
      content: @escaping @MainActor (Store<ChildState, ChildAction>) -> UIViewController
    ) -> ObserveToken {
      store.observePresentation(toPresentation, action: toPresentationAction) {
        [weak self] child in
        self?.present(content(child), animated: animated)
      } dismiss: { [weak self] in
        self?.presentedViewController?.dismiss(animated: animated)
      }
    }
  }
#endif
