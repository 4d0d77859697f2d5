import ConcurrencyExtras

/// An action type with a case that writes a value of the state through the reducer.
///
/// ```swift
/// enum Action: BindableAction {
///   case binding(BindingAction<State>)
///   case submit
/// }
///
/// // reducer:
/// case .binding(let binding):
///   binding.apply(to: &state)
///   return .none
///
/// // view:
/// let query = store.binding(\.query)  // sends .binding(.set(\.query, newValue))
/// ```
///
/// Because the write is an action, it is recorded, tested and seen by feedbacks and
/// `onChange`, unlike a binding that writes the state directly.
public protocol BindableAction {
  /// The state the binding actions write.
  associatedtype State
  /// Embeds a binding action; an enum case `case binding(BindingAction<State>)` provides it.
  static func binding(_ action: BindingAction<State>) -> Self
}

/// A write of one value of the state, carried by an action.
public struct BindingAction<Root>: Sendable, CustomStringConvertible {
  /// The key path written.
  public var keyPath: PartialKeyPath<Root> { storedKeyPath.value }
  // NB: key paths are immutable, but `PartialKeyPath` is not declared `Sendable`.
  private let storedKeyPath: UncheckedSendable<PartialKeyPath<Root>>
  /// The value written.
  public let value: any Sendable
  private let write: @Sendable (inout Root) -> Void
  private let isEqualValue: @Sendable (any Sendable) -> Bool

  /// A write of `value` at `keyPath`.
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<Root, Value>,
    _ value: Value
  ) -> Self {
    let keyPath = UncheckedSendable(keyPath)
    return Self(
      storedKeyPath: UncheckedSendable(keyPath.value),
      value: value,
      write: { $0[keyPath: keyPath.value] = value },
      isEqualValue: { ($0 as? Value) == value }
    )
  }

  /// Writes the value into `root`.
  public func apply(to root: inout Root) {
    write(&root)
  }

  /// Whether this writes `keyPath`: `if action.binding?.writes(\.query) == true`.
  public func writes(_ keyPath: PartialKeyPath<Root>) -> Bool {
    self.keyPath == keyPath
  }

  public var description: String {
    "BindingAction.set(\(keyPath), \(value))"
  }
}

extension BindingAction: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.keyPath == rhs.keyPath && lhs.isEqualValue(rhs.value)
  }
}

extension Store where Action: BindableAction, Action.State == State {
  /// A binding that reads `keyPath` (observing it) and, when set, sends
  /// `.binding(.set(keyPath, newValue))` through the reducer.
  public func binding<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<State, Value>
  ) -> StoreBinding<Value> {
    StoreBinding(
      get: { self[dynamicMember: keyPath] },
      set: { self.send(.binding(.set(keyPath, $0))) }
    )
  }
}

/// A reducer that applies binding actions to the state; place it before the feature's logic.
///
/// ```swift
/// var body: some Reducer<State, Action> {
///   BindingReducer { if case .binding(let binding) = $0 { binding } else { nil } }
///   Reduce { state, action in ... }
/// }
/// ```
public struct BindingReducer<State, Action>: Reducer {
  let extract: (Action) -> BindingAction<State>?

  /// Applies the binding action `extract` finds in an action.
  public init(_ extract: @escaping (Action) -> BindingAction<State>?) {
    self.extract = extract
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    extract(action)?.apply(to: &state)
    return .none
  }
}
