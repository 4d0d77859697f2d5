/// A read–write view of one value of a store's state that writes by sending an action:
/// platform-neutral, and convertible to `SwiftUI.Binding` on Apple platforms.
///
/// ```swift
/// let query = store.binding(\.query, send: Action.queryChanged)
/// query.wrappedValue = "swift"  // sends .queryChanged("swift")
/// ```
@MainActor
@dynamicMemberLookup
public struct StoreBinding<Value> {
  private let get: @MainActor () -> Value
  private let set: @MainActor (Value) -> Void

  /// A binding from a getter and a setter.
  public init(get: @escaping @MainActor () -> Value, set: @escaping @MainActor (Value) -> Void) {
    self.get = get
    self.set = set
  }

  /// The current value; setting it sends the binding's action.
  public var wrappedValue: Value {
    get { get() }
    nonmutating set { set(newValue) }
  }

  /// A binding to a part of the value: setting it sends the whole value with that part changed.
  public subscript<Subject>(
    dynamicMember keyPath: WritableKeyPath<Value, Subject>
  ) -> StoreBinding<Subject> {
    StoreBinding<Subject>(
      get: { self.wrappedValue[keyPath: keyPath] },
      set: { newValue in
        var value = self.wrappedValue
        value[keyPath: keyPath] = newValue
        self.wrappedValue = value
      }
    )
  }
}

extension Store {
  /// A binding that reads `keyPath` (observing it) and sends `action(newValue)` when set:
  /// AsyncReactor's `@ActionBinding`.
  ///
  /// ```swift
  /// TextField("Search", text: Binding(store.binding(\.query, send: Action.queryChanged)))
  /// ```
  public func binding<Value>(
    _ keyPath: KeyPath<State, Value>,
    send action: @escaping (Value) -> Action
  ) -> StoreBinding<Value> {
    StoreBinding(
      get: { self[dynamicMember: keyPath] },
      set: { self.send(action($0)) }
    )
  }
}
