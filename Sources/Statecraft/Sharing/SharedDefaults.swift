import ConcurrencyExtras
import Foundation

/// The defaults that ``AppStorageKey`` reads and writes: `UserDefaults` (Foundation has it on
/// Linux too), or a dictionary in memory for tests.
public struct SharedDefaults: Sendable {
  // NB: a struct of two optionals rather than an enum with two class payloads: such an enum
  // keeps its case in the spare bits of the reference, which hides the reference from the leak
  // checker (CI runs the tests under the address sanitizer).
  // NB: @unchecked Sendable is safe: `UserDefaults` is thread-safe (its documentation says so)
  // but not marked Sendable on every platform, and `LockIsolated` is Sendable.
  struct Backing: @unchecked Sendable {
    var userDefaults: UserDefaults?
    var memory: LockIsolated<[String: any Sendable]>?

    static func userDefaults(_ defaults: UserDefaults) -> Backing {
      Backing(userDefaults: defaults, memory: nil)
    }

    static func memory(_ values: LockIsolated<[String: any Sendable]>) -> Backing {
      Backing(userDefaults: nil, memory: values)
    }
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
    if let defaults = backing.userDefaults { return defaults.object(forKey: key) as? Value }
    let stored = backing.memory?.value[key]
    if let held = stored as? HeldBytes { return held.data as? Value }
    return stored as? Value
  }

  /// Stores `value` under `key` (nil removes it).
  public func set(_ value: (any Sendable)?, forKey key: String) {
    if let defaults = backing.userDefaults {
      defaults.set(value, forKey: key)
    } else {
      // NB: `Data` is held as `HeldBytes`, which the leak sanitizer can follow to its buffer.
      let held: (any Sendable)? = (value as? Data).map(HeldBytes.init) ?? value
      backing.memory?.withValue { $0[key] = held }
    }
  }
}
