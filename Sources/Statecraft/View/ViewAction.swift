// Owns the view-action spelling TCA's `@ViewAction(for:)` writes: an action enum with a `view`
// case for what its view sends, and a `send(_:)` on the view that wraps its actions in that case.
// StatecraftMacros' `@ViewAction(for:)` writes the `ViewActionSending` conformance; without the
// macros, write it by hand (one line).

/// An action enum with a case for what its view sends: `case view(View)`, TCA's `ViewAction`.
///
/// The enum's `view` case satisfies the requirement:
///
/// ```swift
/// enum Action: ViewAction {
///   case view(View)
///   case response(Result<Int, any Error>)
///   enum View { case refreshTapped, rowTapped(id: Int) }
/// }
/// ```
public protocol ViewAction<ViewAction> {
  /// The actions a view sends.
  associatedtype ViewAction

  /// Wraps a view's action in the enum's `view` case.
  static func view(_ action: ViewAction) -> Self
}

/// A view, or a view controller, that holds a store whose actions have a `view` case, and sends
/// its actions with `send(_:)`: `send(.refreshTapped)` rather than
/// `store.send(.view(.refreshTapped))`. TCA's `ViewActionSending`.
///
/// ```swift
/// @ViewAction(for: Feed.self)          // StatecraftMacros; or, by hand:
/// struct FeedView: View {              // extension FeedView: ViewActionSending {}
///   let store: StoreOf<Feed>
///   var body: some View {
///     Button("Refresh") { send(.refreshTapped) }
///   }
/// }
/// ```
///
/// The view can still send the store's other actions with `store.send(_:)`.
@MainActor
public protocol ViewActionSending<StoreState, StoreAction> {
  /// The store's state.
  associatedtype StoreState
  /// The store's actions, which have a `view` case.
  associatedtype StoreAction: ViewAction

  /// The store the view sends to.
  var store: Store<StoreState, StoreAction> { get }
}

extension ViewActionSending {
  /// Sends a view action to the store, wrapped in its action's `view` case.
  ///
  /// - Returns: The task of the effects the action started, as `Store.send(_:)` returns.
  @discardableResult
  public func send(_ action: StoreAction.ViewAction) -> StoreTask {
    store.send(.view(action))
  }
}
