import Statecraft

/// Where the list is synced to: a stand-in for a server, which takes a list in ten steps of
/// ``Todos/syncStep`` and says how far it got after each.
///
/// The todo feature reads it as a dependency, `@Dependency(\.syncClient)`. Its steps wait on the
/// `continuousClock` dependency, so a test that sets that clock to a `TestClock` moves the sync
/// with it:
///
/// ```swift
/// let clock = TestClock()
/// let store = TestStore(initialState: Todos.State(todos: [])) {
///   Todos()
/// } withDependencies: {
///   $0.continuousClock = clock
/// }
/// await store.send(.syncTapped) { $0.sync = .syncing(percent: 0) }
/// await clock.advance(by: Todos.syncStep)
/// await store.receive(.syncProgressed(percent: 10)) { $0.sync = .syncing(percent: 10) }
/// ```
///
/// A test can also replace it (`$0.syncClient = SyncClient { todos, _ in todos.count }`).
public struct SyncClient: Sendable {
  /// Syncs `todos`, calling `progress` with the percent done after each step but the last, and
  /// returns how many todos it synced. It throws `CancellationError` when its task is cancelled.
  public var sync:
    @Sendable (_ todos: [Todo], _ progress: (_ percent: Int) async -> Void) async throws -> Int

  /// A client that syncs with `sync`.
  public init(
    sync:
      @escaping @Sendable (_ todos: [Todo], _ progress: (_ percent: Int) async -> Void)
      async throws -> Int
  ) {
    self.sync = sync
  }

  /// The in-process stand-in: ten steps of ``Todos/syncStep`` on the `continuousClock`
  /// dependency of the effect that calls it.
  public static let inProcess = SyncClient { todos, progress in
    @Dependency(\.continuousClock) var clock
    for step in 1...10 {
      try await clock.sleep(for: Todos.syncStep)
      if step < 10 { await progress(step * 10) }
    }
    return todos.count
  }
}

extension SyncClient: DependencyKey {
  /// The in-process stand-in (``inProcess``).
  public static let liveValue = SyncClient.inProcess
  /// The in-process stand-in as well: it holds no state, and its time is the test's clock (a test
  /// that syncs without setting `continuousClock` fails with "Unimplemented:
  /// ContinuousClock.sleep").
  public static let testValue = SyncClient.inProcess
}

extension DependencyValues {
  /// Where the todo feature syncs its list to.
  public var syncClient: SyncClient {
    get { self[SyncClient.self] }
    set { self[SyncClient.self] = newValue }
  }
}
