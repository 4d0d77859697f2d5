// Owns what the reducers of a store tree can reach while its root reduces an action: the row
// indexes (see Observation/Rows/) and the log of pulse assignments (see Pulse.swift), through a thread-local
// that RootCore.swift sets around the reducer only while one of them is in use.

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// What a store tree tells the reducers it runs: its row indexes (see Observation/Rows/RowObservation.swift)
/// and whether its pulses are logged, with the log. Reducers reach it through a thread-local while
/// the root reduces.
///
/// NB: it is not main-actor isolated because `forEach` reaches it from nonisolated reducer code.
/// It is only ever used on the thread that set it as current: the root store's (the main actor's)
/// thread, synchronously, while that root reduces one action.
@usableFromInline
final class ReduceContext {
  // NB: `@exclusivity(unchecked)` on the three fields: they are used on one thread only (see
  // above), each access is a read, an append or an assignment that ends before any call out, and
  // a reducer that logs a pulse or finds its row index while the root reads them reaches them
  // through a fresh access, never through one held by its caller.
  /// The row indexes of the store tree, in the order they were made.
  @exclusivity(unchecked) var indexes: [any AnyRowIndex] = []
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
}
