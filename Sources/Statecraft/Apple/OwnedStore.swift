#if canImport(SwiftUI)
  import SwiftUI

  /// A store that a SwiftUI view owns: created once per view identity, the first time the view
  /// reads it, and released (cancelling every effect it runs) when the view goes away.
  ///
  /// The role of swiftui-async-feedback's `@ViewContext` and of AsyncReactor's `ReactorView`.
  ///
  /// ```swift
  /// struct CounterView: View {
  ///   @OwnedStore var store = Store(initialState: Counter.State()) { Counter() }
  ///
  ///   var body: some View {
  ///     Stepper("\(store.count)", value: Binding(store.binding(\.count, send: Counter.Action.set)))
  ///   }
  /// }
  /// ```
  ///
  /// A feedback system's loop runs with the view: `.task { await store.run() }`.
  /// Every decision is ``StoreLifetime``'s, which this wrapper keeps in `@State`.
  @MainActor
  @propertyWrapper
  public struct OwnedStore<State, Action>: DynamicProperty {
    @SwiftUI.State private var lifetime: StoreLifetime<State, Action>

    /// Owns the store that `wrappedValue` creates; it is evaluated once per view identity.
    public init(wrappedValue: @autoclosure @escaping @MainActor () -> Store<State, Action>) {
      _lifetime = SwiftUI.State(wrappedValue: StoreLifetime(wrappedValue))
    }

    /// The view's store.
    public var wrappedValue: Store<State, Action> {
      lifetime.store
    }
  }
#endif
