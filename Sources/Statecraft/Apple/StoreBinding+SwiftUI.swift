#if canImport(SwiftUI)
  import SwiftUI

  extension Binding {
    /// A SwiftUI binding that reads and writes through a ``StoreBinding``.
    ///
    /// ```swift
    /// TextField("Search", text: Binding(store.binding(\.query, send: Action.queryChanged)))
    /// ```
    ///
    /// Nothing is decided here: the binding passes the store binding's main-actor
    /// ``StoreBinding/getter`` and ``StoreBinding/setter`` on, as they are.
    @MainActor
    public init(_ base: StoreBinding<Value>) {
      self.init(get: base.getter, set: base.setter)
    }
  }
#endif
