/// What an exploration did, and the failure it found, if any.
///
/// ```swift
/// let report = await explore(initialState: Counter.State(), reducer: { Counter() }, actions: actions) {
///   try invariant($0.count >= 0, "the count is never negative")
/// }
/// print(report.sessions, report.steps, report.failure?.steps.count ?? 0)
/// ```
public struct ExplorationReport<State, Action> {
  /// The seed the sessions were drawn from.
  public let seed: UInt64
  /// How many sessions ran (up to and including a failing one), not counting shrinking.
  public let sessions: Int
  /// How many steps those sessions ran.
  public let steps: Int
  /// The first failure found, shrunk; nil when every session passed.
  public let failure: ExplorationFailure<State, Action>?
}

/// A session that broke the feature, shrunk until nothing smaller breaks it the same way.
///
/// Its ``description`` is the report exploration prints: the seed, the minimal session as steps
/// a person can read, what failed, and a Swift Testing test that replays it.
public struct ExplorationFailure<State, Action>: CustomStringConvertible {
  /// What went wrong.
  public enum Reason: Equatable, Sendable, CustomStringConvertible {
    /// An invariant threw, or reported an issue, with this message.
    case invariant(String)
    /// The store reported an issue (a misuse, an action for a child that is gone, an error an
    /// effect threw), with this message.
    case runtimeIssue(String)
    /// Effects were still running when the session ended with everything dismissed.
    case effectsStillRunning(Int)
    /// The state did not survive a JSON encode and decode; the message says how.
    case stateRoundTrip(String)

    /// The reason as a person reads it.
    public var description: String {
      switch self {
      case .invariant(let message): "invariant failed: \(message)"
      case .runtimeIssue(let message): "the store reported an issue: \(message)"
      case .effectsStillRunning(let count):
        "\(count) \(count == 1 ? "effect was" : "effects were") still running"
      case .stateRoundTrip(let message): "the state did not survive encoding: \(message)"
      }
    }

    /// Whether two reasons are the same failure, for shrinking: the same invariant, or the
    /// same kind of other failure.
    func isSameFailure(as other: Self) -> Bool {
      switch (self, other) {
      case (.invariant(let a), .invariant(let b)): a == b
      case (.runtimeIssue, .runtimeIssue), (.effectsStillRunning, .effectsStillRunning),
        (.stateRoundTrip, .stateRoundTrip):
        true
      default: false
      }
    }
  }

  /// What went wrong.
  public let reason: Reason
  /// The exploration's seed.
  public let seed: UInt64
  /// The index of the session that failed, among those the seed draws.
  public let session: Int
  /// The shrunk session.
  public let steps: [ExplorationStep<Action>]
  /// The step after which the failure was seen (an index into ``steps``), or nil when it was
  /// seen at the end of the session.
  public let failingStep: Int?
  /// The state when the failure was seen.
  public let state: State
  /// How many steps the session had before it was shrunk.
  public let originalStepCount: Int
  /// A Swift Testing test that replays the shrunk session. When the exploration's invariants
  /// have a name (``Invariants``), it replays the steps with `replay` and those invariants: it
  /// fails while the bug is there and passes once it is fixed. Otherwise it replays the session
  /// through a `TestStore` and asserts the states it saw: step by step for a reducer, the state
  /// it failed in for a reactor or a feedback system.
  public let test: String?

  /// How the session ended, as a person reads it (`after sending .close`), when it ended with
  /// a check.
  let sessionEnd: String?

  /// The actions the user sent in the shrunk session.
  public var actions: [Action] { steps.compactMap(\.action) }

  /// The report: seed, steps, reason, test.
  public var description: String {
    var lines = [
      "Exploration found a failing session (seed \(seed), session \(session)), shrunk from "
        + "\(originalStepCount) to \(steps.count) \(steps.count == 1 ? "step" : "steps"):",
      "",
    ]
    for (index, step) in steps.enumerated() {
      lines.append("  \(index + 1). \(step)")
    }
    let reason = "\(self.reason)"
    let sentence = reason.hasSuffix(".") ? reason : reason + "."
    lines.append("")
    if let failingStep {
      lines.append("After step \(failingStep + 1), \(sentence)")
    } else {
      lines.append("At the end of the session\(sessionEnd.map { " (\($0))" } ?? ""), \(sentence)")
    }
    lines.append("")
    lines.append("State: \(state)")
    if let test {
      lines.append("")
      lines.append("A test that replays it:")
      lines.append("")
      lines.append(test)
    }
    return lines.joined(separator: "\n")
  }
}
