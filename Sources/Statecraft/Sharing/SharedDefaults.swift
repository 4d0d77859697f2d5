import ConcurrencyExtras
import Foundation

/// The defaults that ``AppStorageKey`` reads and writes: `UserDefaults` (Foundation has it on
/// Linux too), or a dictionary in memory for tests.
public struct SharedDefaults: Sendable {
  enum Backing: @unchecked Sendable {
    // NB: `UserDefaults` is thread-safe (its documentation says so) but not marked Sendable
    // on every platform.
    case userDefaults(UserDefaults)
    case memory(LockIsolated<[String: any Sendable]>)
  }

  let backing: Backing

  /// `UserDefaults.standard`.
  public static var standard: SharedDefaults { SharedDefaults(backing: .userDefaults(.standard)) }

  /// The defaults of `suiteName`.
  public static func suite(_ suiteName: String) -> SharedDefaults? {
    UserDefaults(suiteName: suiteName).map { SharedDefaults(backing: .userDefaults($0)) }
  }

  /// A new, empty dictionary in memory.
  public static func inMemory() -> SharedDefaults {
    SharedDefaults(backing: .memory(LockIsolated([:])))
  }

  /// The value stored under `key`, if it is a `Value`.
  public func value<Value>(forKey key: String, as type: Value.Type = Value.self) -> Value? {
    switch backing {
    case .userDefaults(let defaults): return defaults.object(forKey: key) as? Value
    case .memory(let values): return values.value[key] as? Value
    }
  }

  /// Stores `value` under `key` (nil removes it).
  public func set(_ value: (any Sendable)?, forKey key: String) {
    switch backing {
    case .userDefaults(let defaults): defaults.set(value, forKey: key)
    case .memory(let values): values.withValue { $0[key] = value }
    }
  }
}
