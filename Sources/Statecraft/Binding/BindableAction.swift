import CasePathsCore
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
/// A reducer matches one field's write as TCA's do, `case .binding(\.query):`, and a test sends
/// or receives it by case key path: `store.send(\.binding.query, "milk")` (with a
/// `CasePathable` action).
///
/// Because the write is an action, it is recorded, tested and seen by feedbacks and
/// `onChange`, unlike a binding that writes the state directly.
public protocol BindableAction {
  /// The state the binding actions write.
  associatedtype State
  /// Embeds a binding action; an enum case `case binding(BindingAction<State>)` provides it.
  static func binding(_ action: BindingAction<State>) -> Self

  /// The binding action this action carries, or nil when it is another case. The default reads
  /// the payload of the `binding` case.
  var binding: BindingAction<State>? { get }
}

extension BindableAction {
  /// The binding action this action carries, or nil when it is another case: the payload of
  /// the case that ``binding(_:)`` makes.
  public var binding: BindingAction<State>? {
    guard let tag = EnumTag.of(self), tag == Self.bindingTag,
      let payload = Mirror(reflecting: self).children.first?.value
    else { return nil }
    return payload as? BindingAction<State>
  }

  /// The case index of the `binding` case.
  private static var bindingTag: UInt32? {
    EnumTag.of(Self.binding(BindingAction<State>(placeholderOf: State.self)))
  }
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

  /// A write that does nothing, to read the case of an action that embeds one.
  init(placeholderOf _: Root.Type) {
    self.storedKeyPath = UncheckedSendable(\Root.self)
    self.value = 0
    self.write = { _ in }
    self.isEqualValue = { _ in false }
  }

  private init(
    storedKeyPath: UncheckedSendable<PartialKeyPath<Root>>, value: any Sendable,
    write: @escaping @Sendable (inout Root) -> Void,
    isEqualValue: @escaping @Sendable (any Sendable) -> Bool
  ) {
    self.storedKeyPath = storedKeyPath
    self.value = value
    self.write = write
    self.isEqualValue = isEqualValue
  }

  /// Whether `action` writes `keyPath`: what lets a reducer match one field's write, as TCA's
  /// do.
  ///
  /// ```swift
  /// case .binding(\.servings):
  ///   state.total = state.servings * state.portion
  ///   return .none
  /// case .binding:
  ///   return .none
  /// ```
  public static func ~= <Value>(keyPath: WritableKeyPath<Root, Value>, action: Self) -> Bool {
    action.keyPath == keyPath
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

extension BindingAction: CasePathable {
  /// The case paths of a binding action: one for each writable field of the state, so that
  /// `\.binding.title` is the write of `title`.
  ///
  /// ```swift
  /// await store.send(\.edit.binding.title, "Buy milk")
  /// await store.receive(\.binding.isOn, true)
  /// ```
  @dynamicMemberLookup
  public struct AllCasePaths: Sendable {
    /// The write of the field at `keyPath`: it embeds a value as `.set(keyPath, value)`, and
    /// extracts the value of a write of that field.
    public subscript<Value: Equatable & Sendable>(
      dynamicMember keyPath: WritableKeyPath<Root, Value>
    ) -> AnyCasePath<BindingAction, Value> {
      let keyPath = UncheckedSendable(keyPath)
      return AnyCasePath(
        embed: { .set(keyPath.value, $0) },
        extract: { $0.keyPath == keyPath.value ? $0.value as? Value : nil })
    }
  }

  /// The case paths of a binding action.
  public static var allCasePaths: AllCasePaths { AllCasePaths() }
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
///   BindingReducer()  // Action: BindableAction
///   Reduce { state, action in ... }
/// }
/// ```
///
/// An action that is not a ``BindableAction`` names where its binding actions are:
/// `BindingReducer { $0[case: \.binding] }`.
public struct BindingReducer<State, Action>: Reducer {
  let extract: (Action) -> BindingAction<State>?

  /// Applies the binding action `extract` finds in an action.
  public init(_ extract: @escaping (Action) -> BindingAction<State>?) {
    self.extract = extract
  }

  /// Applies the binding actions of a ``BindableAction``: TCA's `BindingReducer()`.
  public init() where Action: BindableAction, Action.State == State {
    self.extract = { $0.binding }
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    extract(action)?.apply(to: &state)
    return .none
  }
}
