import Foundation

/// A shared value kept in the user defaults under a key (Foundation has `UserDefaults` on Linux
/// too): a `Bool`, an `Int`, a `Double`, a `String`, `Data`, or an array or dictionary of them.
///
/// ```swift
/// var launchCount = Shared(wrappedValue: 0, .appStorage("launchCount"))
/// ```
///
/// Tests use an in-memory ``SharedDefaults``: they never touch the user's defaults.
public struct AppStorageKey<Value: Sendable>: SharedKey, CustomStringConvertible {
  /// The defaults key.
  public let key: String

  /// A key for the defaults value named `key`.
  public init(_ key: String) {
    self.key = key
  }

  public var id: AppStorageKeyID { AppStorageKeyID(key: key) }

  public func load(in storage: SharedStorage) throws -> Value? {
    storage.defaults.value(forKey: key, as: Value.self)
  }

  public func save(_ value: Value, in storage: SharedStorage) throws {
    storage.defaults.set(value, forKey: key)
  }

  public var description: String { "appStorage(\(String(reflecting: key)))" }
}

/// The identity of an ``AppStorageKey``: its defaults key.
public struct AppStorageKeyID: Hashable, Sendable {
  let key: String
}

extension SharedKey {
  /// A value kept in the user defaults under `key`: see ``AppStorageKey``.
  ///
  /// ```swift
  /// var launchCount = Shared(wrappedValue: 0, .appStorage("launchCount"))
  /// ```
  public static func appStorage<Value>(_ key: String) -> Self where Self == AppStorageKey<Value> {
    AppStorageKey(key)
  }
}
