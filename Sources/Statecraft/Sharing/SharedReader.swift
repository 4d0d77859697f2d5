import CustomDump

/// A read-only view of a shared value: it sees every holder's writes, and can't write.
///
/// Give a feature a reader when it shows a value that another feature owns:
///
/// ```swift
/// struct Badge: Reducer {
///   struct State: Equatable {
///     @SharedReader var unreadCount: Int
///   }
///   ...
/// }
/// Badge.State(unreadCount: inbox.$unreadCount.reader)
/// ```
///
/// A reader is made from a ``Shared`` (``Shared/reader`` or ``init(_:)``), from a field of one
/// (`$settings.isOn` where a reader is expected), or from a key, as a ``Shared`` is:
/// `@SharedReader(.appStorage("isOn")) var isOn = false`. Reading it is observed as reading the
/// shared value is, field by field; a test store tracks the shared value behind it.
@dynamicMemberLookup
@propertyWrapper
public struct SharedReader<Value: Sendable>: Sendable {
  let base: Shared<Value>

  /// A reader of `shared`.
  public init(_ shared: Shared<Value>) {
    base = shared
  }

  /// A reader of a value of its own, that nothing writes.
  public init(value: Value) {
    base = Shared(value: value)
  }

  /// A reader of the value stored under `key`, or of `wrappedValue` when nothing is stored yet.
  public init(
    wrappedValue: @autoclosure () -> Value,
    _ key: some SharedKey<Value>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    base = Shared(
      wrappedValue: wrappedValue(), key, fileID: fileID, filePath: filePath, line: line,
      column: column)
  }

  /// A reader of the value stored under `key`, or of the key's default when nothing is stored.
  public init<Key: SharedKey>(
    _ key: SharedKeyDefault<Key>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where Key.Value == Value {
    base = Shared(key, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// A reader of the value stored under `key`, or of `wrappedValue` (not the key's default)
  /// when nothing is stored.
  public init<Key: SharedKey>(
    wrappedValue: @autoclosure () -> Value,
    _ key: SharedKeyDefault<Key>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where Key.Value == Value {
    base = Shared(
      wrappedValue: wrappedValue(), key, fileID: fileID, filePath: filePath, line: line,
      column: column)
  }

  /// A reader of the value stored under `key`; throws when nothing is stored.
  public init(
    _ key: some SharedKey<Value>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) throws {
    base = try Shared(key, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// The value. Reading it observes all of it; reading a field observes only that field.
  public var wrappedValue: Value { base.wrappedValue }

  /// This reader, for `$count` on a wrapped property.
  public var projectedValue: SharedReader<Value> {
    get { self }
    set { self = newValue }
  }

  /// Reads a field of the value and observes that field only.
  public subscript<Member>(dynamicMember keyPath: KeyPath<Value, Member>) -> Member {
    base.read(keyPath)
  }

  /// A field of the value, as a reader of its own.
  @_disfavoredOverload
  public subscript<Member: Sendable>(dynamicMember keyPath: KeyPath<Value, Member>)
    -> SharedReader<Member>
  {
    SharedReader<Member>(Shared<Member>(projection: base.projected(keyPath, isWritable: false)))
  }

  /// Why the value could not be loaded or saved, if the last attempt failed.
  public var error: (any Error)? { base.error }

  /// Calls `onChange` with the new value after each change, as a `Shared` does.
  package func observeChanges(_ onChange: @escaping @Sendable (Value) -> Void)
    -> SharedSubscription
  {
    base.observeChanges(onChange)
  }
}

// MARK: - Conformances

extension SharedReader: Equatable where Value: Equatable {
  /// Whether the two values are equal.
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.base == rhs.base }
}

extension SharedReader: Hashable where Value: Hashable {
  public func hash(into hasher: inout Hasher) { base.hash(into: &hasher) }
}

extension SharedReader: SharedReferenceHolder {
  package var anyReference: any AnySharedReference { base.anyReference }
}

extension SharedReader: CustomDumpRepresentable {
  public var customDumpValue: Any { base.customDumpValue }
}

extension SharedReader: CustomReflectable {
  /// The value's mirror, as a ``Shared``'s.
  public var customMirror: Mirror { base.customMirror }
}

extension SharedReader: CustomStringConvertible {
  public var description: String { "SharedReader(\(base.currentValue))" }
}
