import IdentifiedCollections

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// What a store tree tells the reducers it runs: its row indexes (see RowIndex.swift) and whether
/// any of its effects is running. Reducers reach it through a thread-local while the root reduces.
///
/// NB: it is not main-actor isolated because `forEach` reaches it from nonisolated reducer code.
/// It is only ever used on the thread that set it as current: the root store's (the main actor's)
/// thread, synchronously, while that root reduces one action.
@usableFromInline
final class ReduceContext {
  /// The row indexes of the store tree, in the order they were made.
  @exclusivity(unchecked) var indexes: [RowIndex] = []
  /// Whether a pulse stream reads the store tree: pulse assignments are then logged.
  @exclusivity(unchecked) var logsPulses = false
  /// Every pulse assignment of the batch being reduced, in order (see Pulse.swift).
  @exclusivity(unchecked) var pulseLog: [(previous: UInt64, stamp: UInt64, value: Any)] = []

  /// Whether the root must make this context current while it reduces.
  var isNeededWhileReducing: Bool { logsPulses || !indexes.isEmpty }

  init() {}

  // MARK: - The current context

  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    let result = pthread_key_create(&key, nil)
    precondition(result == 0, "Statecraft could not create a thread-local key (\(result)).")
    return key
  }()

  /// The context of the store tree reducing on this thread, if it set one for this action.
  @usableFromInline
  static var current: ReduceContext? {
    guard let pointer = pthread_getspecific(key) else { return nil }
    return Unmanaged<ReduceContext>.fromOpaque(pointer).takeUnretainedValue()
  }

  /// Makes `context` current, returning the context that was current (restore it with
  /// ``exit(to:)``).
  static func enter(_ context: ReduceContext) -> UnsafeMutableRawPointer? {
    let previous = pthread_getspecific(key)
    pthread_setspecific(key, Unmanaged.passUnretained(context).toOpaque())
    return previous
  }

  static func exit(to previous: UnsafeMutableRawPointer?) {
    pthread_setspecific(key, previous)
  }

  // MARK: - Element writes

  /// Called by `forEach` before an element reducer writes the element `id` of `rows`: lets go of
  /// the snapshots of `rows` and records `id` as touched. Returns the indexes to hand back to
  /// ``didWrite(_:to:)``.
  @usableFromInline
  func willWrite<ID: Hashable, Element>(
    _ rows: IdentifiedArray<ID, Element>, id: ID
  ) -> [RowIndex] {
    let identity = storageIdentity(of: rows)
    var written: [RowIndex] = []
    for index in indexes where index.identity == identity && index.snapshot != nil {
      index.snapshot = nil
      index.touched.insert(AnyHashable(id))
      written.append(index)
    }
    return written
  }

  /// Called by `forEach` after an element reducer wrote: takes the snapshots back.
  @usableFromInline
  func didWrite<ID: Hashable, Element>(
    _ rows: IdentifiedArray<ID, Element>, to written: [RowIndex]
  ) {
    guard !written.isEmpty else { return }
    let identity = storageIdentity(of: rows)
    for index in written {
      // NB: a write that copied the storage wrote a copy of the published collection; the
      // published one is no longer held, so every row is re-checked after the batch.
      index.snapshot = identity == index.identity ? rows : nil
    }
  }
}
