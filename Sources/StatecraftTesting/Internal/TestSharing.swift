import Statecraft

/// The shared values of one test store: the storage in force where it is made (the test's own,
/// which the test's body shares, or one the test picked) and the tracker that records their
/// changes for assertion.
struct TestSharing: Sendable {
  let tracker = SharedChangeTracker()
  let storage: SharedStorage

  /// The sharing of a test store made with the dependency values in force.
  init() {
    storage = SharedStorage.current
    storage.attach(tracker)
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

  /// The test store has ended.
  func end() {
    storage.detach(tracker)
  }
}
