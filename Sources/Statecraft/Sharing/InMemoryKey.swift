/// A shared value kept in memory under a name: every holder of the same name in one
/// ``SharedStorage`` (every store of the process, in an app) shares it. Nothing is persisted.
///
/// ```swift
/// var isSignedIn = Shared(wrappedValue: false, .inMemory("isSignedIn"))
/// ```
public struct InMemoryKey<Value: Sendable>: SharedKey, InMemorySharedKey,
  CustomStringConvertible
{
  /// The name the value is kept under.
  public let name: String

  /// A key for the value named `name`.
  public init(_ name: String) {
    self.name = name
  }

  public var id: InMemoryKeyID { InMemoryKeyID(name: name) }

  /// The value a holder last wrote, while the storage lives; nil before the first holder.
  public func load(in storage: SharedStorage) throws -> Value? {
    storage.memory.value[name] as? Value
  }

  /// Keeps `value` in the storage, for a holder made after the last one went away.
  public func save(_ value: Value, in storage: SharedStorage) throws {
    storage.memory.withValue { $0[name] = value }
  }

  public var description: String { "inMemory(\(String(reflecting: name)))" }
}

/// The identity of an ``InMemoryKey``: its name.
public struct InMemoryKeyID: Hashable, Sendable {
  let name: String
}

extension SharedKey {
  /// A value kept in memory under `name`, shared by every holder in the process.
  ///
  /// ```swift
  /// var isSignedIn = Shared(wrappedValue: false, .inMemory("isSignedIn"))
  /// ```
  public static func inMemory<Value>(_ name: String) -> Self where Self == InMemoryKey<Value> {
    InMemoryKey(name)
  }
}
