extension StoreBinding {
  /// Reads the binding's value: a main-actor closure for UI frameworks' own bindings (SwiftUI's
  /// `Binding(get:set:)` takes `@isolated(any) @Sendable` closures, which keep this isolation).
  public var getter: @MainActor @Sendable () -> Value {
    { self.wrappedValue }
  }

  /// Writes the binding's value (sends its action): the counterpart of ``getter``.
  public var setter: @MainActor @Sendable (Value) -> Void {
    { self.wrappedValue = $0 }
  }
}
