// Owns `@Dependency(\.dismiss)`: TCA's spelling of `DismissEffect`, registered with
// swift-dependencies. The dismissal itself is the presenter's (see Navigation/Dismiss.swift).
import Dependencies

extension DismissEffect: DependencyKey {
  /// A dismissal that ends the presentation of the feature whose effect calls it.
  public static var liveValue: DismissEffect { DismissEffect() }
  /// The same dismissal: in a test it sends the presenter the action a test store receives.
  public static var testValue: DismissEffect { DismissEffect() }
}

extension DependencyValues {
  /// Ends the presentation of the feature whose effect calls it, or pops it from its stack:
  /// TCA's `@Dependency(\.dismiss)`.
  ///
  /// ```swift
  /// struct Detail: Reducer {
  ///   @Dependency(\.dismiss) var dismiss
  ///
  ///   func reduce(into state: inout State, action: Action) -> Effect<Action> {
  ///     switch action {
  ///     case .closeTapped:
  ///       return .run { _ in await dismiss() }
  ///     }
  ///   }
  /// }
  /// ```
  ///
  /// It is the same value as ``DismissEffect/init()``: the presenter it dismisses is the one
  /// running the effect that calls it.
  public var dismiss: DismissEffect {
    get { self[DismissEffect.self] }
    set { self[DismissEffect.self] = newValue }
  }
}
