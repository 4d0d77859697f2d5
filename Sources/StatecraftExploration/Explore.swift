import Dependencies
import IssueReporting
import Statecraft
import StatecraftTestGenerator

/// Explores a reducer: runs many seeded sessions of random user actions against a store of it,
/// moving its clock and letting its effects deliver between the actions, and checks after every
/// step that the invariants hold and that the store reported no issue.
///
/// ```swift
/// @Test @MainActor func counterNeverGoesNegative() async {
///   await explore(
///     initialState: Counter.State(),
///     reducer: { Counter() },
///     actions: .weighted([
///       (3, .constant(.incrementButtonTapped)),
///       (2, .constant(.decrementButtonTapped)),
///       (1, .int(in: 1...5).map(Counter.Action.addButtonTapped)),
///     ]),
///     options: ExplorationOptions(seed: 1, sessions: 200)
///   ) { state in
///     try invariant(state.count >= 0, "the count is never negative")
///   }
/// }
/// ```
///
/// The feature's clock is an ``ExplorationClock`` in `continuousClock` and `suspendingClock`.
/// Each user action's effects run until they wait, as with a test store's `send`; between two
/// actions a session may also advance the clock by one of ``ExplorationOptions/clockAdvances``,
/// resuming the sleepers due at the same instant in an order drawn from the seed. At the end of
/// a session it
/// checks what `sessionEnd` asks (no effect left running) and that a `Codable` state survives a
/// JSON round trip.
///
/// A failing session is shrunk: steps are removed, clock advances shortened or merged into one
/// of their sum, actions simplified (as their generator allows), while it fails the same way,
/// until no single change makes it smaller. The failure (see
/// ``ExplorationFailure``) prints the seed, the steps, and a Swift Testing test that replays the
/// session through a `TestStore`, written by `StatecraftTestGenerator` from `test` (by default,
/// a test store of `R()` with the clock in `continuousClock`). Pass named ``Invariants`` with
/// `checking:` instead of a closure to get a test that replays the steps with the same checks,
/// which fails until the bug is fixed.
///
/// - Parameters:
///   - initialState: The state each session starts from; evaluated once a session.
///   - reducer: Builds the feature, once a session, with the session's dependencies in force.
///   - actions: The user actions a session sends.
///   - options: The seed, how many sessions, how long, which clock advances.
///   - sessionEnd: How a session ends, and whether effects may still run then.
///   - test: How the generated test builds the feature; nil for the default.
///   - prepareDependencies: Changes the dependency values the store runs with, after the clock
///     is set.
///   - reportsFailure: Whether a failure is reported with `reportIssue` (failing the test that
///     explores); the report is returned either way.
///   - invariants: Checks the state after every step: throw (``invariant(_:_:fileID:line:)``)
///     or `reportIssue` when it is wrong. Pass `{ _ in }` to check only what exploration checks
///     by itself (runtime issues, effects left running, the round trip).
///   - fileID: The file where a failure is reported; leave the default.
///   - filePath: The file path where a failure is reported; leave the default.
///   - line: The line where a failure is reported; leave the default.
///   - column: The column where a failure is reported; leave the default.
/// - Returns: What ran, and the shrunk failure if one was found.
@MainActor
@discardableResult
public func explore<R: Reducer>(
  initialState: @autoclosure @escaping () -> R.State,
  reducer: @escaping () -> R,
  actions: ActionGenerator<R.Action>,
  options: ExplorationOptions = ExplorationOptions(),
  sessionEnd: SessionEnd<R.State, R.Action> = .none,
  test: TestGenerator.Configuration? = nil,
  withDependencies prepareDependencies: @escaping (inout DependencyValues) -> Void = { _ in },
  reportsFailure: Bool = true,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  invariants: @escaping (R.State) throws -> Void
) async -> ExplorationReport<R.State, R.Action> {
  let feature = ExploredFeature<R.State, R.Action>(
    makeStore: { Store(initialState: $0, reducer: reducer()) },
    runsLoop: false,
    record: { store, recorder in store.record(into: recorder) }
  )
  return await feature.explore(
    initialState: initialState, actions: actions, options: options, sessionEnd: sessionEnd,
    invariants: invariants, prepareDependencies: prepareDependencies,
    test: test ?? defaultTest(of: R.self),
    reportsFailure: reportsFailure,
    location: (fileID, filePath, line, column))
}

/// Explores a reactor: as ``explore(initialState:reducer:actions:options:sessionEnd:test:withDependencies:reportsFailure:fileID:filePath:line:column:invariants:)``,
/// with a store of the reactor (`Store(initialState:reactor:)`); a session sends its actions.
///
/// ```swift
/// await explore(
///   initialState: CounterReactor.State(),
///   reactor: CounterReactor(),
///   actions: .cases(of: CounterReactor.Action.self)
/// ) { state in
///   try invariant(!state.isLoading || state.value >= 0, "a load starts from a valid value")
/// }
/// ```
///
/// The reactor's subscriptions run for the whole session and don't count as effects left
/// running. A failure's generated test replays its steps through a `TestStore` of the reactor
/// that is not exhaustive, and asserts the state the session failed in (a reactor's mutations
/// are not recorded step by step).
@MainActor
@discardableResult
public func explore<R: Reactor>(
  initialState: @autoclosure @escaping () -> R.State,
  reactor: R,
  actions: ActionGenerator<R.Action>,
  options: ExplorationOptions = ExplorationOptions(),
  sessionEnd: SessionEnd<R.State, R.Action> = .none,
  test: TestGenerator.Configuration? = nil,
  withDependencies prepareDependencies: @escaping (inout DependencyValues) -> Void = { _ in },
  reportsFailure: Bool = true,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  invariants: @escaping (R.State) throws -> Void
) async -> ExplorationReport<R.State, R.Action> {
  let feature = ExploredFeature<R.State, R.Action>(
    makeStore: { Store(initialState: $0, reactor: reactor) },
    runsLoop: false,
    record: nil
  )
  return await feature.explore(
    initialState: initialState, actions: actions, options: options, sessionEnd: sessionEnd,
    invariants: invariants, prepareDependencies: prepareDependencies,
    test: test ?? defaultTest(of: R.self, idiom: .reactor),
    reportsFailure: reportsFailure,
    location: (fileID, filePath, line, column))
}

/// Explores a feedback system: as ``explore(initialState:reducer:actions:options:sessionEnd:test:withDependencies:reportsFailure:fileID:filePath:line:column:invariants:)``,
/// with a store of the system whose loop runs for the whole session; a session sends events as
/// the user would.
///
/// ```swift
/// await explore(
///   initialState: Paging.State(),
///   system: Paging(),
///   actions: .weighted([(3, .constant(.nextPageRequested)), (1, .constant(.refresh))])
/// ) { state in
///   try invariant(Set(state.items).count == state.items.count, "no item is shown twice")
/// }
/// ```
///
/// The loop's own machinery doesn't count as effects left running. A failure's generated test
/// replays its steps through a `TestStore` of the system that is not exhaustive, and asserts the
/// state the session failed in.
@MainActor
@discardableResult
public func explore<S: FeedbackSystem>(
  initialState: @autoclosure @escaping () -> S.State,
  system: S,
  actions: ActionGenerator<S.Event>,
  options: ExplorationOptions = ExplorationOptions(),
  sessionEnd: SessionEnd<S.State, S.Event> = .none,
  test: TestGenerator.Configuration? = nil,
  withDependencies prepareDependencies: @escaping (inout DependencyValues) -> Void = { _ in },
  reportsFailure: Bool = true,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  invariants: @escaping (S.State) throws -> Void
) async -> ExplorationReport<S.State, S.Event> {
  let feature = ExploredFeature<S.State, S.Event>(
    makeStore: { Store(initialState: $0, system: system) },
    runsLoop: true,
    record: nil
  )
  return await feature.explore(
    initialState: initialState, actions: actions, options: options, sessionEnd: sessionEnd,
    invariants: invariants, prepareDependencies: prepareDependencies,
    test: test ?? defaultTest(of: S.self, idiom: .feedbackSystem),
    reportsFailure: reportsFailure,
    location: (fileID, filePath, line, column))
}

/// Explores a reducer, as
/// ``explore(initialState:reducer:actions:options:sessionEnd:test:withDependencies:reportsFailure:fileID:filePath:line:column:invariants:)``
/// does, with invariants that have a name: the test written for a failure replays its steps with
/// ``replay(initialState:reducer:steps:sessionEnd:withDependencies:fileID:filePath:line:column:checking:)``
/// and the same invariants, so it fails while the bug is there and passes once it is fixed.
///
/// ```swift
/// await explore(
///   initialState: Cart.State(), reducer: { Cart() }, actions: Cart.actions,
///   checking: Cart.invariants)
/// ```
@MainActor
@discardableResult
public func explore<R: Reducer>(
  initialState: @autoclosure @escaping () -> R.State,
  reducer: @escaping () -> R,
  actions: ActionGenerator<R.Action>,
  options: ExplorationOptions = ExplorationOptions(),
  sessionEnd: SessionEnd<R.State, R.Action> = .none,
  test: TestGenerator.Configuration? = nil,
  withDependencies prepareDependencies: @escaping (inout DependencyValues) -> Void = { _ in },
  reportsFailure: Bool = true,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  checking invariants: Invariants<R.State>
) async -> ExplorationReport<R.State, R.Action> {
  let feature = ExploredFeature<R.State, R.Action>(
    makeStore: { Store(initialState: $0, reducer: reducer()) },
    runsLoop: false,
    record: { store, recorder in store.record(into: recorder) }
  )
  return await feature.explore(
    initialState: initialState, actions: actions, options: options, sessionEnd: sessionEnd,
    invariants: invariants.check, invariantsName: invariants.name,
    prepareDependencies: prepareDependencies, test: test ?? defaultTest(of: R.self),
    reportsFailure: reportsFailure, location: (fileID, filePath, line, column))
}

/// Explores a reactor, as
/// ``explore(initialState:reactor:actions:options:sessionEnd:test:withDependencies:reportsFailure:fileID:filePath:line:column:invariants:)``
/// does, with invariants that have a name, which the test written for a failure replays its
/// steps with.
@MainActor
@discardableResult
public func explore<R: Reactor>(
  initialState: @autoclosure @escaping () -> R.State,
  reactor: R,
  actions: ActionGenerator<R.Action>,
  options: ExplorationOptions = ExplorationOptions(),
  sessionEnd: SessionEnd<R.State, R.Action> = .none,
  test: TestGenerator.Configuration? = nil,
  withDependencies prepareDependencies: @escaping (inout DependencyValues) -> Void = { _ in },
  reportsFailure: Bool = true,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  checking invariants: Invariants<R.State>
) async -> ExplorationReport<R.State, R.Action> {
  let feature = ExploredFeature<R.State, R.Action>(
    makeStore: { Store(initialState: $0, reactor: reactor) },
    runsLoop: false,
    record: nil
  )
  return await feature.explore(
    initialState: initialState, actions: actions, options: options, sessionEnd: sessionEnd,
    invariants: invariants.check, invariantsName: invariants.name,
    prepareDependencies: prepareDependencies,
    test: test ?? defaultTest(of: R.self, idiom: .reactor),
    reportsFailure: reportsFailure, location: (fileID, filePath, line, column))
}

/// Explores a feedback system, as
/// ``explore(initialState:system:actions:options:sessionEnd:test:withDependencies:reportsFailure:fileID:filePath:line:column:invariants:)``
/// does, with invariants that have a name, which the test written for a failure replays its
/// steps with.
@MainActor
@discardableResult
public func explore<S: FeedbackSystem>(
  initialState: @autoclosure @escaping () -> S.State,
  system: S,
  actions: ActionGenerator<S.Event>,
  options: ExplorationOptions = ExplorationOptions(),
  sessionEnd: SessionEnd<S.State, S.Event> = .none,
  test: TestGenerator.Configuration? = nil,
  withDependencies prepareDependencies: @escaping (inout DependencyValues) -> Void = { _ in },
  reportsFailure: Bool = true,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  checking invariants: Invariants<S.State>
) async -> ExplorationReport<S.State, S.Event> {
  let feature = ExploredFeature<S.State, S.Event>(
    makeStore: { Store(initialState: $0, system: system) },
    runsLoop: true,
    record: nil
  )
  return await feature.explore(
    initialState: initialState, actions: actions, options: options, sessionEnd: sessionEnd,
    invariants: invariants.check, invariantsName: invariants.name,
    prepareDependencies: prepareDependencies,
    test: test ?? defaultTest(of: S.self, idiom: .feedbackSystem),
    reportsFailure: reportsFailure, location: (fileID, filePath, line, column))
}

/// The generated test's configuration when the exploration gives none: a test store of `R()`,
/// from the recorded initial state, with the clock in `continuousClock`.
private func defaultTest<R>(
  of type: R.Type, idiom: TestGenerator.Idiom = .reducer
) -> TestGenerator.Configuration {
  let name = String(reflecting: type)
  let module = name.split(separator: ".").first.map(String.init)
  let typeName = name.split(separator: ".").dropFirst().joined(separator: ".")
  return TestGenerator.Configuration(
    imports: module.map { [$0] } ?? [],
    reducer: "\(typeName.isEmpty ? name : typeName)()",
    idiom: idiom,
    dependencies: ["$0.continuousClock = clock"],
    testName: "exploredSession",
    clock: TestGenerator.Clock(name: "clock"),
    ending: .skipInFlightEffects
  )
}

extension ExploredFeature {
  /// Runs the exploration of this feature, and reports its failure at `location` when asked:
  /// what the three `explore` functions do once they have built the feature.
  @MainActor
  fileprivate func explore(
    initialState: @escaping () -> State,
    actions: ActionGenerator<Action>,
    options: ExplorationOptions,
    sessionEnd: SessionEnd<State, Action>,
    invariants: @escaping (State) throws -> Void,
    invariantsName: String? = nil,
    prepareDependencies: @escaping (inout DependencyValues) -> Void,
    test: TestGenerator.Configuration?,
    reportsFailure: Bool,
    location: (fileID: StaticString, filePath: StaticString, line: UInt, column: UInt)
  ) async -> ExplorationReport<State, Action> {
    let explorer = Explorer(
      feature: self, initialState: initialState, actions: actions, options: options,
      sessionEnd: sessionEnd, invariants: invariants, invariantsName: invariantsName,
      prepareDependencies: prepareDependencies)
    let report = await explorer.explore(test: test)
    if reportsFailure, let failure = report.failure {
      reportIssue(
        failure.description, fileID: location.fileID, filePath: location.filePath,
        line: location.line, column: location.column)
    }
    return report
  }
}
