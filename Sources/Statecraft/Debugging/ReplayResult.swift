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

  /// A swift-custom-dump diff of ``expected`` (`-`) and ``replayed`` (`+`).
  public var diff: String {
    CustomDump.diff(expected, replayed)
      ?? "(the states are not equal, but their dumps are the same: check State's '==')"
  }

  /// The step, the action, where the divergence may have started, and the diff.
  public var description: String {
    var action = ""
    customDump(self.action, to: &action)
    var text = """
      diverged at step \(step) of \(stepCount): the replayed state differs from the recorded \
      one after the action
      \(action.indentedLines())

      """
    if lastMatchingStep < step - 1 {
      text += """
        The states of steps \(lastMatchingStep + 1) to \(step - 1) were not stored; the replay \
        went wrong at one of the steps from \(lastMatchingStep + 1) to \(step).

        """
    }
    text += "expected (-) vs replayed (+):\n" + diff
    return text
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
