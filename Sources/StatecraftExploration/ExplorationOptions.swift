/// How many sessions exploration runs, how long they are, and how it moves the clock.
///
/// ```swift
/// ExplorationOptions(seed: 7, sessions: 500, maxActions: 12)
/// ```
public struct ExplorationOptions: Sendable {
  /// The seed every session is drawn from: the same seed gives the same sessions, on any machine.
  public var seed: UInt64
  /// How many sessions to run, at most: exploration stops at the first that fails.
  public var sessions: Int
  /// The most user actions a session sends; each session's count is drawn from `1...maxActions`.
  public var maxActions: Int
  /// The durations the clock may advance by between two user actions.
  public var clockAdvances: [Duration]
  /// How many sessions shrinking may replay, at most, to make a failure smaller.
  public var shrinkBudget: Int

  /// Options; see each property.
  public init(
    seed: UInt64 = 0,
    sessions: Int = 100,
    maxActions: Int = 10,
    clockAdvances: [Duration] = [
      .milliseconds(10), .milliseconds(100), .milliseconds(300), .seconds(1), .seconds(5),
    ],
    shrinkBudget: Int = 2_000
  ) {
    self.seed = seed
    self.sessions = sessions
    self.maxActions = max(1, maxActions)
    self.clockAdvances = clockAdvances.filter { $0 > .zero }
    self.shrinkBudget = shrinkBudget
  }
}

/// How a session ends, and what exploration checks then.
///
/// ```swift
/// .teardown([.closeButtonTapped])                  // after these, nothing may be running
/// .whenIdle { !$0.isLoading && $0.child == nil }   // when this holds, nothing may be running
/// ```
///
/// "Nothing running" counts the effects the store runs beyond those it ran right after it was
/// made (a reactor's subscriptions, a feedback loop): a timer or a request left running fails
/// the session. The end of every session also checks that a `Codable` and `Equatable` state
/// survives a JSON encode and decode.
public struct SessionEnd<State, Action> {
  enum Kind {
    case none
    case teardown([Action])
    case whenIdle((State) -> Bool)
  }

  let kind: Kind

  /// No check of running effects at the end.
  public static var none: Self { Self(kind: .none) }

  /// Sends `actions` (closing, dismissing, cancelling everything), lets effects run, and fails
  /// the session if an effect is still running.
  ///
  /// ```swift
  /// .teardown([.timer(.stopButtonTapped), .sheet(.dismiss)])
  /// ```
  public static func teardown(_ actions: [Action]) -> Self { Self(kind: .teardown(actions)) }

  /// Lets effects run, and fails the session if `isIdle` holds of the state while an effect is
  /// still running.
  ///
  /// ```swift
  /// .whenIdle { $0.request == nil }
  /// ```
  public static func whenIdle(_ isIdle: @escaping (State) -> Bool) -> Self {
    Self(kind: .whenIdle(isIdle))
  }
}
