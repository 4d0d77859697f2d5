import Statecraft

/// The shared values of one test store: an isolated in-memory storage (or the storage the test
/// picked with `withSharedStorage`) and the tracker that records their changes for assertion.
struct TestSharing: Sendable {
  let tracker = SharedChangeTracker()
  let storage: SharedStorage

  init() {
    storage = SharedStorage.isolated(tracker: tracker)
  }

  /// Makes the initial state in this test's storage, and tracks the shared values it holds.
  func makeInitialState<State>(_ make: () -> State) -> State {
    let state = run(make)
    tracker.track(state)
    return state
  }

  /// Runs `body` against this test's storage: the shared values it makes live there.
  func run<R>(_ body: () throws -> R) rethrows -> R {
    try withSharedStorage(storage, operation: body)
  }
}
