import ConcurrencyExtras

/// Where a ``Shared`` value lives: a persistence strategy.
///
/// A strategy says how the value is identified (``id``), read when the first holder asks for it
/// (``load(in:)``), written after each change (``save(_:in:)``), and told about changes made
/// outside the process (``subscribe(in:subscriber:)``). Statecraft ships three:
/// ``SharedKey/inMemory(_:)``, ``SharedKey/fileStorage(_:maximumSize:)`` and ``SharedKey/appStorage(_:)``.
///
/// Every holder of a key with the same ``id`` in one ``SharedStorage`` shares one value: the
/// strategy is asked to load it once.
///
/// A strategy of your own conforms with a few lines. This one keeps the value in a dictionary
/// held by a server-side cache:
///
/// ```swift
/// struct CacheKey<Value: Codable & Sendable>: SharedKey {
///   let name: String
///   let cache: Cache
///   var id: String { name }
///   func load(in storage: SharedStorage) throws -> Value? {
///     try cache.data(for: name).map { try JSONDecoder().decode(Value.self, from: $0) }
///   }
///   func save(_ value: Value, in storage: SharedStorage) throws {
///     try cache.set(JSONEncoder().encode(value), for: name)
///   }
/// }
/// ```
///
/// The Sharing State article shows one backed by SQLite through GRDB.
public protocol SharedKey<Value>: Sendable {
  /// The type of the value.
  associatedtype Value: Sendable
  /// What identifies the stored value: keys with equal ids share one value.
  associatedtype ID: Hashable & Sendable

  /// What identifies the stored value.
  var id: ID { get }

  /// The stored value, or nil when nothing is stored yet (the holder's default is then used).
  ///
  /// Throw when something is stored but can't be read (a corrupt file): the error is reported,
  /// the default is used, and the strategy must then not write over what it could not read.
  func load(in storage: SharedStorage) throws -> Value?

  /// Stores `value`. Called after each change, on the thread that made it; a strategy may defer
  /// and coalesce the writes (a file does).
  func save(_ value: Value, in storage: SharedStorage) throws

  /// Starts telling `subscriber` about the changes made outside this process, until the
  /// returned subscription is cancelled. The default watches nothing.
  func subscribe(
    in storage: SharedStorage, subscriber: SharedSubscriber<Value>
  ) -> SharedSubscription
}

extension SharedKey {
  public func subscribe(
    in storage: SharedStorage, subscriber: SharedSubscriber<Value>
  ) -> SharedSubscription {
    SharedSubscription {}
  }
}

/// What a ``SharedKey`` tells the shared value it backs, from any thread.
public struct SharedSubscriber<Value: Sendable>: Sendable {
  let receive: @Sendable (Value) -> Void
  let fail: @Sendable (any Error) -> Void

  /// Creates a subscriber from its two callbacks (for testing a strategy).
  public init(
    receive: @escaping @Sendable (Value) -> Void,
    fail: @escaping @Sendable (any Error) -> Void
  ) {
    self.receive = receive
    self.fail = fail
  }

  /// The stored value changed outside the process: every holder sees `value`.
  public func yield(_ value: Value) { receive(value) }

  /// A load or a deferred save failed: the error is reported and kept in ``Shared/error``.
  public func yield(error: any Error) { fail(error) }
}

/// Keeps a ``SharedKey`` watching for outside changes; ``cancel()`` (or releasing the last
/// holder of the value) stops it.
public final class SharedSubscription: Sendable {
  private let onCancel: @Sendable () -> Void

  /// A subscription that runs `onCancel` once, when cancelled.
  public init(_ onCancel: @escaping @Sendable () -> Void) {
    let isCancelled = LockIsolated(false)
    self.onCancel = {
      let first = isCancelled.withValue { done in
        defer { done = true }
        return !done
      }
      if first { onCancel() }
    }
  }

  /// Stops watching.
  public func cancel() { onCancel() }

  deinit { onCancel() }
}
