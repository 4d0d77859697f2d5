/// A ``SharedKey`` with a default value of its own, so that each use needs none:
/// `@Shared(.isOn) var isOn` rather than `@Shared(.appStorage("isOn")) var isOn = false`.
///
/// ```swift
/// extension SharedKey where Self == SharedKeyDefault<AppStorageKey<Bool>> {
///   static var isOn: Self { SharedKeyDefault(.appStorage("isOn"), false) }
/// }
///
/// @Shared(.isOn) var isOn          // false until something is stored
/// @Shared(.isOn) var other = true  // a use may still give a default of its own
/// ```
///
/// swift-sharing's spelling works too: `Key.Default` names this type, and
/// `Self[key, default: value]` makes one.
///
/// ```swift
/// extension SharedKey where Self == AppStorageKey<Bool>.Default {
///   static var isOn: Self { Self[.appStorage("isOn"), default: false] }
/// }
/// extension SharedKey where Self == FileStorageKey<[Todo]>.Default {
///   static var todos: Self { Self[.fileStorage(.todosFile), default: []] }
/// }
/// ```
///
/// It stores the value as its base key does, under the base key's id: every holder of
/// `.isOn` and of `.appStorage("isOn")` shares one value. The default is computed only when
/// it is used: when nothing is stored and no holder gave one.
public struct SharedKeyDefault<Base: SharedKey>: SharedKey, CustomStringConvertible {
  /// The key that stores the value.
  public let base: Base
  /// The value when nothing is stored yet.
  public let defaultValue: @Sendable () -> Base.Value

  /// `base`, with `defaultValue` when nothing is stored yet (computed only then).
  public init(_ base: Base, _ defaultValue: @autoclosure @escaping @Sendable () -> Base.Value) {
    self.base = base
    self.defaultValue = defaultValue
  }

  /// `key`, with `defaultValue` when nothing is stored yet (computed only then): the
  /// spelling of swift-sharing, `Self[.appStorage("isOn"), default: false]`.
  public static subscript(
    _ key: Base, default defaultValue: @autoclosure @escaping @Sendable () -> Base.Value
  ) -> Self {
    Self(key, defaultValue())
  }

  public var id: Base.ID { base.id }

  public func load(in storage: SharedStorage) throws -> Base.Value? {
    try base.load(in: storage)
  }

  public func save(_ value: Base.Value, in storage: SharedStorage) throws {
    try base.save(value, in: storage)
  }

  public func subscribe(
    in storage: SharedStorage, subscriber: SharedSubscriber<Base.Value>
  ) -> SharedSubscription {
    base.subscribe(in: storage, subscriber: subscriber)
  }

  public var description: String { String(describing: base) }
}

extension SharedKeyDefault: InMemorySharedKey where Base: InMemorySharedKey {}

extension SharedKey {
  /// This key with a default value of its own: `AppStorageKey<Bool>.Default` is
  /// `SharedKeyDefault<AppStorageKey<Bool>>`.
  public typealias Default = SharedKeyDefault<Self>
}
