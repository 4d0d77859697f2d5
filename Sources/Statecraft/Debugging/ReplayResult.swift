import CustomDump

/// What ``Recording/replay(against:)`` found: the recording reproduced, or the first step at
/// which it did not.
///
/// Its ``description`` is the report to print: `reproduced: 42 steps`, or the divergence with a
/// diff.
public struct ReplayResult<State, Action>: CustomStringConvertible {
  /// The number of steps (actions) in the recording.
  public let stepCount: Int
  /// The number of stored states that the replay reproduced.
  public let checkedStepCount: Int
  /// The replayed state where the replay stopped: after the last action, or at the divergence.
  public let finalState: State
  /// The first stored state the replay did not reproduce; nil when it reproduced them all.
  public let divergence: ReplayDivergence<State, Action>?

  /// Whether the replay reproduced every stored state.
  public var isReproduced: Bool { divergence == nil }

  /// `reproduced: N steps`, or the divergence's description.
  public var description: String {
    if let divergence { return divergence.description }
    return "reproduced: \(stepCount) \(stepCount == 1 ? "step" : "steps")"
  }
}

/// The first stored state of a recording that a replay did not reproduce.
public struct ReplayDivergence<State, Action>: CustomStringConvertible {
  /// The step whose stored state differs from the replayed one (step `n` follows the `n`th
  /// action).
  public let step: Int
  /// The number of steps in the recording.
  public let stepCount: Int
  /// The action of ``step``: the last one the replay ran.
  public let action: Action
  /// The state the recording stored for ``step``.
  public let expected: State
  /// The state the replay reached at ``step``.
  public let replayed: State
  /// The last step before ``step`` whose stored state the replay reproduced (0: the initial
  /// state). When the recording stores every state it is `step - 1`; otherwise the replay
  /// first went wrong at one of the steps after it, up to ``step``.
  public let lastMatchingStep: Int
  /// An earlier step whose stored state, with ``action`` applied, is the recorded state of
  /// ``step``: the session was probably put back at that step (a time-travel jump, a state
  /// replaced outside the reducer) before the action, which a recording of actions does not
  /// hold. Nil when no stored state before `step - 1` gives it.
  public let stepPutBackTo: Int?

  /// A swift-custom-dump diff of ``expected`` (`-`) and ``replayed`` (`+`).
  public var diff: String {
    CustomDump.diff(expected, replayed)
      ?? "(the states are not equal, but their dumps are the same: check State's '==')"
  }

  /// The step, the action, where the divergence may have started, the diff, and why a replay
  /// diverges.
  public var description: String {
    var action = ""
    customDump(self.action, to: &action)
    var text = """
      diverged at step \(step) of \(stepCount): the replayed state differs from the recorded \
      one after the action
      \(action.indentedLines())

      """
    if let stepPutBackTo {
      text += """
        The recorded state is what this action makes of the state of step \(stepPutBackTo): the \
        session was probably put back at step \(stepPutBackTo) (time travel) before it, and a \
        recording holds actions only.

        """
    }
    if lastMatchingStep < step - 1 {
      text += """
        The states of steps \(lastMatchingStep + 1) to \(step - 1) were not stored; the replay \
        went wrong at one of the steps from \(lastMatchingStep + 1) to \(step).

        """
    }
    text += "expected (-) vs replayed (+):\n" + diff + "\n" + Self.reasons
    return text
  }

  /// What makes a replay diverge: it runs the recorded actions through the reducer from the
  /// recorded initial state, and nothing else.
  static var reasons: String {
    """
    A replay runs the recorded actions through the reducer, from the recorded initial state, and \
    nothing else. It diverges when:
    - the state changed outside the reducer during the session: a time-travel jump or a \
    "continue from here", a state replaced by hand, a shared value written from outside the \
    store (its file edited by another program);
    - the reducer reads what its state and actions don't hold: the clock, a random number, a \
    UUID, a file (make them dependencies);
    - the reducer changed since the session was recorded;
    - the recording was edited.
    """
  }
}

extension ReplayResult: Sendable where State: Sendable, Action: Sendable {}
extension ReplayDivergence: Sendable where State: Sendable, Action: Sendable {}

// MARK: - Helpers

extension String {
  fileprivate func indentedLines() -> String {
    split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.isEmpty ? "" : "  " + $0 }
      .joined(separator: "\n")
  }
}
