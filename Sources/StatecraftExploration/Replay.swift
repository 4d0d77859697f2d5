import Dependencies
import IssueReporting
import Statecraft

/// Replays the steps of an explored session against a reducer, checking after each one what
/// exploration checked, and fails the test (with `reportIssue`) where a check fails: the test
/// exploration writes for a failure.
///
/// ```swift
/// @Test @MainActor func cartLimit() async {
///   await replay(
///     initialState: Cart.State(items: []),
///     reducer: { Cart() },
///     steps: [.send(.add(1)), .send(.add(2)), .send(.add(3))],
///     checking: Cart.invariants)
/// }
/// ```
///
/// The session runs as exploration ran it: on an ``ExplorationClock`` in `continuousClock` and
/// `suspendingClock`, each sent action's effects running until they wait, each advance resuming
/// the sleepers due together in the order its `order` gives. After each step the invariants are
/// checked, and the store must have reported no issue; at the end, `sessionEnd` is checked and a
/// `Codable` state must survive a JSON round trip. No state is asserted otherwise, so a fix that
/// changes the states on the way passes, and the bug fails the test as it failed the session.
///
/// - Parameters:
///   - initialState: The state the session starts from.
///   - reducer: Builds the feature, with the session's dependencies in force.
///   - steps: The steps to replay: a failure's ``ExplorationFailure/steps``.
///   - sessionEnd: How the session ends, as the exploration said.
///   - prepareDependencies: Changes the dependency values the store runs with, after the clock
///     is set.
///   - fileID: The file where a failure is reported; leave the default.
///   - filePath: The file path where a failure is reported; leave the default.
///   - line: The line where a failure is reported; leave the default.
///   - column: The column where a failure is reported; leave the default.
///   - invariants: What the exploration checked after every step.
/// - Returns: The failure, if a check failed; it has been reported.
@MainActor
@discardableResult
public func replay<R: Reducer>(
  initialState: @autoclosure @escaping () -> R.State,
  reducer: @escaping () -> R,
  steps: [ExplorationStep<R.Action>],
  sessionEnd: SessionEnd<R.State, R.Action> = .none,
  withDependencies prepareDependencies: @escaping (inout DependencyValues) -> Void = { _ in },
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  checking invariants: Invariants<R.State>
) async -> ExplorationFailure<R.State, R.Action>.Reason? {
  let feature = ExploredFeature<R.State, R.Action>(
    makeStore: { Store(initialState: $0, reducer: reducer()) }, runsLoop: false, record: nil)
  return await feature.replay(
    steps, initialState: initialState, sessionEnd: sessionEnd, invariants: invariants,
    prepareDependencies: prepareDependencies, location: (fileID, filePath, line, column))
}

/// Replays the steps of an explored session against a reactor: as
/// ``replay(initialState:reducer:steps:sessionEnd:withDependencies:fileID:filePath:line:column:checking:)``,
/// with a store of the reactor.
///
/// ```swift
/// await replay(
///   initialState: Thermostat.State(), reactor: Thermostat(), steps: [.send(.up), .send(.up)],
///   checking: Thermostat.invariants)
/// ```
@MainActor
@discardableResult
public func replay<R: Reactor>(
  initialState: @autoclosure @escaping () -> R.State,
  reactor: R,
  steps: [ExplorationStep<R.Action>],
  sessionEnd: SessionEnd<R.State, R.Action> = .none,
  withDependencies prepareDependencies: @escaping (inout DependencyValues) -> Void = { _ in },
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  checking invariants: Invariants<R.State>
) async -> ExplorationFailure<R.State, R.Action>.Reason? {
  let feature = ExploredFeature<R.State, R.Action>(
    makeStore: { Store(initialState: $0, reactor: reactor) }, runsLoop: false, record: nil)
  return await feature.replay(
    steps, initialState: initialState, sessionEnd: sessionEnd, invariants: invariants,
    prepareDependencies: prepareDependencies, location: (fileID, filePath, line, column))
}

/// Replays the steps of an explored session against a feedback system: as
/// ``replay(initialState:reducer:steps:sessionEnd:withDependencies:fileID:filePath:line:column:checking:)``,
/// with a store of the system whose loop runs for the whole session.
///
/// ```swift
/// await replay(
///   initialState: Pager.State(), system: Pager(), steps: [.send(.nextPage), .send(.reset)],
///   checking: Pager.invariants)
/// ```
@MainActor
@discardableResult
public func replay<S: FeedbackSystem>(
  initialState: @autoclosure @escaping () -> S.State,
  system: S,
  steps: [ExplorationStep<S.Event>],
  sessionEnd: SessionEnd<S.State, S.Event> = .none,
  withDependencies prepareDependencies: @escaping (inout DependencyValues) -> Void = { _ in },
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  checking invariants: Invariants<S.State>
) async -> ExplorationFailure<S.State, S.Event>.Reason? {
  let feature = ExploredFeature<S.State, S.Event>(
    makeStore: { Store(initialState: $0, system: system) }, runsLoop: true, record: nil)
  return await feature.replay(
    steps, initialState: initialState, sessionEnd: sessionEnd, invariants: invariants,
    prepareDependencies: prepareDependencies, location: (fileID, filePath, line, column))
}

extension ExploredFeature {
  /// Runs `steps` as exploration runs a session, and reports the first check that fails at
  /// `location`: what the three `replay` functions do once they have built the feature.
  @MainActor
  fileprivate func replay(
    _ steps: [ExplorationStep<Action>],
    initialState: @escaping () -> State,
    sessionEnd: SessionEnd<State, Action>,
    invariants: Invariants<State>,
    prepareDependencies: @escaping (inout DependencyValues) -> Void,
    location: (fileID: StaticString, filePath: StaticString, line: UInt, column: UInt)
  ) async -> ExplorationFailure<State, Action>.Reason? {
    let explorer = Explorer(
      feature: self, initialState: initialState, actions: nil, options: ExplorationOptions(),
      sessionEnd: sessionEnd, invariants: invariants.check, invariantsName: invariants.name,
      prepareDependencies: prepareDependencies)
    guard let failure = await explorer.replay(steps) else { return nil }
    let place =
      failure.step.map { "After step \($0 + 1) (\(steps[$0]))" } ?? "At the end of the session"
    reportIssue(
      """
      The replayed session failed. \(place), \(failure.reason).

      State: \(failure.state)
      """,
      fileID: location.fileID, filePath: location.filePath, line: location.line,
      column: location.column)
    return failure.reason
  }
}
