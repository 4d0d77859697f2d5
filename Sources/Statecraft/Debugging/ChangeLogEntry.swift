import CustomDump

/// One line of a change log: an action a reducer received and the state change it caused.
///
/// A sink receives entries as values; ``description`` is the text that
/// ``ChangeLogSink/standardError``, ``ChangeLogSink/text(_:)`` and
/// ``ChangeLogSink/file(at:)`` write:
///
/// ```
/// received action:
///   Counter.Action.increment
///   Counter.State(
/// -   count: 0,
/// +   count: 1,
///     text: ""
///   )
/// ```
public struct ChangeLogEntry: Sendable, Equatable, CustomStringConvertible {
  /// The action, dumped with swift-custom-dump (`Counter.Action.setText("a")`).
  public let action: String
  /// The change the action made, as a swift-custom-dump diff of the state before (`-`) and after
  /// (`+`) the action; nil when the action left the state unchanged.
  public let diff: String?

  /// An entry for `action`, whose state change is `diff` (nil when nothing changed).
  public init(action: String, diff: String?) {
    self.action = action
    self.diff = diff
  }

  /// The entry as the text sinks write it, ending with a newline.
  public var description: String {
    var text = "received action:\n"
    text += action.indented() + "\n"
    // NB: a diff's lines start with a two-character margin ("  ", "- ", "+ ") already.
    text += (diff ?? "  (no state changes)") + "\n"
    return text
  }
}

// MARK: - Making entries

extension ChangeLogEntry {
  /// The entry for `action`, which changed the state from `before` to `after`.
  init<State, Action>(action: Action, before: State, after: State) {
    var dump = ""
    customDump(action, to: &dump)
    self.init(action: dump, diff: CustomDump.diff(before, after))
  }
}

extension String {
  fileprivate func indented() -> String {
    split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.isEmpty ? "" : "  " + $0 }
      .joined(separator: "\n")
  }
}
