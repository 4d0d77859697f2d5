import ConcurrencyExtras
import CustomDump
import Dependencies
import IssueReporting
import Statecraft

/// A store for tests that asserts every state change and every action effects send back.
///
/// ```swift
/// @Test @MainActor func loadsAFact() async {
///   let clock = TestClock()
///   let store = TestStore(initialState: Counter.State()) {
///     Counter(fact: { "\($0) is a number" }, clock: clock)
///   }
///   await store.send(.increment) { $0.count = 1 }
///   await store.send(.factButtonTapped) { $0.isLoading = true }
///   await clock.advance(by: .seconds(1))
///   await store.receive(.factResponse("1 is a number")) {
///     $0.isLoading = false
///     $0.fact = "1 is a number"
///   }
/// }
/// ```
///
/// The test store runs the same engine as `Store`. It is exhaustive by default: the test fails
/// if a state change is not asserted, if an effect sends an action that is never received, or
/// if an effect is still running when the test store finishes (``finish(timeout:fileID:filePath:line:column:)``
/// or its release). Set ``exhaustivity`` to `.off` to assert only what matters to a test. A
/// cancelled effect is over at once, and a throttle window that holds nothing back is not an
/// effect.
///
/// While a test store is alive the main serial executor (swift-concurrency-extras) is on, so
/// that effects run one at a time in a repeatable order; it is restored when the last test store
/// ends.
///
/// It works for reducers, reactors (effects send *mutations*, asserted with `receive`) and
/// feedback systems (the loop runs from creation to ``finish(timeout:fileID:filePath:line:column:)``;
/// feedbacks send *events*, asserted with `receive`). Its generic parameters are the state, the
/// actions a test sends, and the received actions: what effects send back and `receive` asserts
/// (the actions again for a reducer, the mutations for a reactor, the events for a feedback
/// system).
@MainActor
public final class TestStore<State, Action, ReceivedAction> {
  /// How strictly the test store checks state changes, received actions and effects.
  public var exhaustivity: Exhaustivity {
    get { harness.exhaustivity }
    set { harness.exhaustivity = newValue }
  }

  /// Runs `operation` with ``exhaustivity`` set to `exhaustivity`, then restores it.
  ///
  /// ```swift
  /// await store.withExhaustivity(.off) {
  ///   await store.send(.refresh)
  ///   await store.receive(\.loaded) { $0.items = items }
  /// }
  /// ```
  public func withExhaustivity(
    _ exhaustivity: Exhaustivity,
    operation: () async throws -> Void
  ) async rethrows {
    let previous = self.exhaustivity
    self.exhaustivity = exhaustivity
    defer { self.exhaustivity = previous }
    try await operation()
  }

  /// Whether tasks run on the main serial executor. A test store turns it on when it is created
  /// and restores what was there when the last test store ends; set it to `false` to run a
  /// test's effects on the global executor.
  public var useMainSerialExecutor: Bool {
    get { uncheckedUseMainSerialExecutor }
    set { uncheckedUseMainSerialExecutor = newValue }
  }

  /// How long ``receive(_:timeout:assert:fileID:filePath:line:column:)-(ReceivedAction,_,_,_,_,_,_)``
  /// and ``finish(timeout:fileID:filePath:line:column:)`` wait for effects, by default.
  public var timeout: Duration = .seconds(1)

  /// The dependency values the store reduces actions and starts effects with: those in force
  /// when it was created, changed by its `withDependencies` closure.
  ///
  /// Changing them applies to the actions sent (and received) from then on, and to the effects
  /// those start; effects already running keep the values they started with.
  ///
  /// ```swift
  /// store.dependencies.date.now = Date(timeIntervalSince1970: 987_654_321)
  /// await store.send(.tap) { $0.date = Date(timeIntervalSince1970: 987_654_321) }
  /// ```
  public var dependencies: DependencyValues {
    get { harness.dependencies }
    set { harness.dependencies = newValue }
  }

  /// Whether the feature dismissed itself, as a root: it called `@Dependency(\.dismiss)` (or a
  /// `DismissEffect`) with no presenter, as a screen that closes itself does when it is tested
  /// on its own.
  ///
  /// ```swift
  /// await store.send(.saveTapped)
  /// await store.receive(\.delegate.saved)
  /// #expect(store.isDismissed)
  /// ```
  ///
  /// The dismissal ends the store's effects (a test need not wait for them), and sending to a
  /// dismissed store fails. Actions its effects sent before it are still received. A presented
  /// child's dismissal is its presenter's, as in a live store: the presenter receives
  /// `.dismiss` (or `.popFrom(id:)`).
  public var isDismissed: Bool { harness.isDismissed }

  /// The state as the last assertion left it: after the last `send`, `receive`, `assert` or
  /// `skipReceivedActions()`, as in TCA. Actions not yet received are not applied to it.
  public var state: State { assertedState }

  var assertedState: State {
    get { harness.assertedState }
    set { harness.assertedState = newValue }
  }

  let harness: Harness<State, Action, ReceivedAction>

  init(harness: Harness<State, Action, ReceivedAction>) {
    self.harness = harness
  }

  // NB: a nonisolated deinit runs in the releasing task, so a failure it reports reaches the
  // test that released the store (an isolated deinit loses the test's task-local context). A
  // test store is main-actor isolated, so the task that releases it runs on the main actor.
  deinit {
    let harness = self.harness
    MainActor.assumeIsolated {
      guard !harness.isFinished else { return }
      harness.isFinished = true
      let running = harness.runtime.effects.unskippedEffectCount
      harness.checkEnd(running: running, location: harness.creation, waited: false)
      harness.teardown()
    }
  }
}

/// How strictly a ``TestStore`` checks.
public enum Exhaustivity: Equatable, Sendable {
  /// Every state change, received action and running effect must be asserted.
  case on
  /// Only what the test asserts is checked; with `showSkippedAssertions`, what was skipped is
  /// reported as a known issue so it stays visible.
  case off(showSkippedAssertions: Bool)

  /// `.off(showSkippedAssertions: false)`.
  public static let off = Self.off(showSkippedAssertions: false)
}

/// A test store of a reducer: `TestStoreOf<Counter>`.
public typealias TestStoreOf<R: Reducer> = TestStore<R.State, R.Action, R.Action>

// MARK: - Creating test stores

extension TestStore where Action == ReceivedAction {
  /// A test store that runs the reducer built by `reducer`.
  ///
  /// `send` asserts the state right after the sent action; the actions its effects send back
  /// (`.send` effects included) are asserted with `receive`.
  ///
  /// `prepareDependencies` changes the dependency values the feature runs with: every action
  /// is reduced, and every effect runs, with them, in the feature and in every child it
  /// composes (a child's own `.dependency(...)` still applies on top). A dependency the test
  /// did not set and whose `testValue` is unimplemented fails the test with its name when it is
  /// used.
  ///
  /// ```swift
  /// let store = TestStore(initialState: Search.State()) {
  ///   Search()
  /// } withDependencies: {
  ///   $0.continuousClock = clock
  ///   $0.searchClient.search = { _ in ["Milk"] }
  /// }
  /// ```
  public convenience init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let harness = withDependencies(prepareDependencies) {
      Self.reducerHarness(
        initialState: initialState, reducer: reducer,
        creation: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }
    self.init(harness: harness)
  }

  /// The harness of a reducer's test store, made with the dependency values in force.
  private static func reducerHarness<R: Reducer<State, Action>>(
    initialState: () -> State, reducer: () -> R, creation: CallSite
  ) -> Harness<State, Action, ReceivedAction> {
    let sharing = TestSharing()
    let initialState = sharing.makeInitialState(initialState)
    let reducer = sharing.run(reducer)
    typealias Event = ReducerTestEvent<Action>
    let harness = Harness<State, Action, ReceivedAction>(
      initialState: initialState,
      sharing: sharing,
      reduce: { state, event in
        switch event {
        case .sent(let action), .received(let action):
          return reducer.reduce(into: &state, action: action).map { Event.received($0) }
        }
      },
      embed: { Event.sent($0) },
      received: { (event: Event) -> ReceivedAction? in
        if case .received(let action) = event { return action }
        return nil
      },
      sendAsserts: .sentAction,
      creation: creation
    )
    return harness
  }
}

/// The internal events of a reducer's test store.
enum ReducerTestEvent<Action> {
  case sent(Action)
  case received(Action)
}

extension TestStore {
  /// A test store that runs a reactor.
  ///
  /// `send` asserts the state as a live store shows it when `send` returns: after every
  /// mutation applied synchronously (the action's own, and those of the actions
  /// `transform(action:)` rewrote it into). Mutations applied later (by asynchronous work, or
  /// by an action that `transform(action:)` delayed) are asserted with `receive`, one mutation
  /// at a time. The routes the reactor publishes are asserted with
  /// ``receive(route:fileID:filePath:line:column:)``. `prepareDependencies` changes the
  /// dependency values that `mutate`, `reduce` and their effects read.
  public convenience init<R: Reactor>(
    initialState: @autoclosure () -> State,
    reactor: R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where R.State == State, R.Action == Action, R.Mutation == ReceivedAction {
    let harness = withDependencies(prepareDependencies) {
      Self.reactorHarness(
        initialState: initialState, reactor: reactor,
        creation: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }
    self.init(harness: harness)
  }

  /// The harness of a reactor's test store, made with the dependency values in force.
  private static func reactorHarness<R: Reactor>(
    initialState: () -> State, reactor: R, creation: CallSite
  ) -> Harness<State, Action, ReceivedAction>
  where R.State == State, R.Action == Action, R.Mutation == ReceivedAction {
    let sharing = TestSharing()
    let initialState = sharing.makeInitialState(initialState)
    let log = ReceivedLog<State, ReceivedAction>()
    let routes = RouteHub()
    routes.onPublish { route in
      MainActor.assumeIsolated { log.routes.append(route) }
    }
    let reducer = ReactorReducer(reactor: reactor, routes: routes) { mutation, before, after in
      MainActor.assumeIsolated { log.record(mutation, before: before, after: after) }
    }
    let harness = Harness(
      initialState: initialState,
      sharing: sharing,
      log: log,
      reduce: { reducer.reduce(into: &$0, action: $1) },
      embed: { .action($0) },
      received: { _ in nil },
      sendAsserts: .wholeBatch,
      creation: creation,
      start: .subscribe
    )
    return harness
  }

  /// A test store that runs a feedback system. The loop starts now (the feedbacks see the
  /// initial state); events the feedbacks send are asserted with `receive`.
  ///
  /// ``finish(timeout:fileID:filePath:line:column:)`` first waits for the feedbacks in flight,
  /// so that the events they send must be received too, and then stops the loop.
  /// `prepareDependencies` changes the dependency values that the system's `reduce`, its
  /// feedbacks and their work read.
  public convenience init<S: FeedbackSystem>(
    initialState: @autoclosure () -> State,
    system: S,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where S.State == State, S.Event == Action, S.Event == ReceivedAction {
    let harness = withDependencies(prepareDependencies) {
      Self.systemHarness(
        initialState: initialState, system: system,
        creation: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }
    self.init(harness: harness)
  }

  /// The harness of a feedback system's test store, made with the dependency values in force.
  private static func systemHarness<S: FeedbackSystem>(
    initialState: () -> State, system: S, creation: CallSite
  ) -> Harness<State, Action, ReceivedAction>
  where S.State == State, S.Event == Action, S.Event == ReceivedAction {
    let sharing = TestSharing()
    let initialState = sharing.makeInitialState(initialState)
    let reducer = FeedbackReducer(system: system, loop: FeedbackLoop())
    let harness = Harness(
      initialState: initialState,
      sharing: sharing,
      reduce: { reducer.reduce(into: &$0, action: $1) },
      embed: { .event($0) },
      received: { if case .feedback(let event) = $0 { event } else { nil } },
      sendAsserts: .sentAction,
      creation: creation,
      start: .start,
      stop: .stop
    )
    return harness
  }
}
