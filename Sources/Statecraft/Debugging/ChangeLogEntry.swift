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
  ///
  /// `sharedBefore` holds the values that the shared values of `before` had: both states hold
  /// the same references, so the two states are dumped apart and their lines compared.
  init<State, Action>(
    action: Action, before: State, after: State, sharedBefore: SharedSnapshot? = nil
  ) {
    var dump = ""
    customDump(action, to: &dump)
    guard let sharedBefore else {
      self.init(action: dump, diff: CustomDump.diff(before, after))
      return
    }
    var old = ""
    sharedBefore.whileReading { customDump(before, to: &old) }
    var new = ""
    customDump(after, to: &new)
    self.init(action: dump, diff: lineDiff(old, new))
  }
}

/// The lines that differ between two dumps, with two lines of context, in the format of
/// swift-custom-dump's diffs: a changed region between the common first and last lines.
func lineDiff(_ old: String, _ new: String) -> String? {
  guard old != new else { return nil }
  let oldLines = old.split(separator: "\n", omittingEmptySubsequences: false)
  let newLines = new.split(separator: "\n", omittingEmptySubsequences: false)
  var prefix = 0
  while prefix < oldLines.count, prefix < newLines.count, oldLines[prefix] == newLines[prefix] {
    prefix += 1
  }
  var suffix = 0
  while suffix < oldLines.count - prefix, suffix < newLines.count - prefix,
    oldLines[oldLines.count - 1 - suffix] == newLines[newLines.count - 1 - suffix]
  {
    suffix += 1
  }
  let context = 2
  var lines: [String] = []
  func unchanged(_ range: Range<Int>, keepingFirst: Bool) {
    // NB: the first line (the state's type) and the last (its closing parenthesis) are kept,
    // as swift-custom-dump keeps them; a run longer than the context is folded.
    let kept = range.count <= 2 * context + 1
    if kept {
      lines += range.map { "  " + oldLines[$0] }
      return
    }
    if keepingFirst {
      lines.append("  " + oldLines[range.lowerBound])
      lines.append("  … (\(range.count - 1 - context) unchanged)")
      lines += (range.upperBound - context..<range.upperBound).map { "  " + oldLines[$0] }
    } else {
      lines += (range.lowerBound..<range.lowerBound + context).map { "  " + oldLines[$0] }
      lines.append("  … (\(range.count - 1 - context) unchanged)")
      lines.append("  " + oldLines[range.upperBound - 1])
    }
  }
  unchanged(0..<prefix, keepingFirst: true)
  lines += oldLines[prefix..<(oldLines.count - suffix)].map { "- " + $0 }
  lines += newLines[prefix..<(newLines.count - suffix)].map { "+ " + $0 }
  unchanged((oldLines.count - suffix)..<oldLines.count, keepingFirst: false)
  return lines.joined(separator: "\n")
}

extension String {
  fileprivate func indented() -> String {
    split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.isEmpty ? "" : "  " + $0 }
      .joined(separator: "\n")
  }
}
