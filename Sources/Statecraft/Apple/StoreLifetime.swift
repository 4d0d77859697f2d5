/// Creates a store the first time it is read and keeps that one store for its own lifetime:
/// what a view that owns a store needs, on any platform.
///
/// A SwiftUI view's initializer runs again every time its parent's body does, so a store created
/// in it (`@State var store = Store(...)`) is created again each time and thrown away, after its
/// reactor's `subscriptions()` have started. A lifetime creates nothing until ``store`` is read,
/// so a copy that SwiftUI discards costs a closure and never starts an effect.
///
/// ```swift
/// let lifetime = StoreLifetime { Store(initialState: Feature.State()) { Feature() } }
/// lifetime.store.send(.onAppear)  // created here, once
/// ```
///
/// Releasing the lifetime releases the store, which cancels every effect it runs. On Apple
/// platforms `OwnedStore` (a SwiftUI property wrapper) keeps a lifetime in a view's `@State`.
@MainActor
public final class StoreLifetime<State, Action> {
  private var make: (@MainActor () -> Store<State, Action>)?
  private var created: Store<State, Action>?

  /// A lifetime that will create its store with `make`, once, when ``store`` is first read.
  public nonisolated init(_ make: @escaping @MainActor () -> Store<State, Action>) {
    self.make = make
  }

  /// The store: created by the first read, the same store for every read after it.
  public var store: Store<State, Action> {
    if let created { return created }
    // NB: `make` is dropped once used, so that what it captured is not kept for nothing.
    let store = make!()
    created = store
    make = nil
    return store
  }

  /// Whether ``store`` has been read (and so created).
  public var isStoreCreated: Bool { created != nil }
}
