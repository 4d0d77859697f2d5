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
/// swift-custom-dump's diffs (`- ` removed, `+ ` added, `  ` kept, long unchanged runs folded).
package func lineDiff(_ old: String, _ new: String) -> String? {
  guard old != new else { return nil }
  let oldLines = old.split(separator: "\n", omittingEmptySubsequences: false)
  let newLines = new.split(separator: "\n", omittingEmptySubsequences: false)
  var lines: [String] = []
  var unchanged: [Substring] = []
  var isFirstRun = true
  // NB: the first line (the state's type) and the last (its closing parenthesis) are kept, as
  // swift-custom-dump keeps them; a run longer than the context is folded.
  func flush(isLast: Bool) {
    let context = 2
    defer {
      unchanged.removeAll()
      isFirstRun = false
    }
    let head = isFirstRun ? 1 : context
    let tail = isLast ? 1 : context
    guard unchanged.count > head + tail + 1 else {
      lines += unchanged.map { "  " + $0 }
      return
    }
    lines += unchanged.prefix(head).map { "  " + $0 }
    lines.append("  … (\(unchanged.count - head - tail) unchanged)")
    lines += unchanged.suffix(tail).map { "  " + $0 }
  }
  for edit in lineEdits(oldLines, newLines) {
    switch edit {
    case .keep(let line): unchanged.append(line)
    case .remove(let line):
      if !unchanged.isEmpty || isFirstRun { flush(isLast: false) }
      lines.append("- " + line)
    case .insert(let line):
      if !unchanged.isEmpty || isFirstRun { flush(isLast: false) }
      lines.append("+ " + line)
    }
  }
  flush(isLast: true)
  return lines.joined(separator: "\n")
}

private enum LineEdit {
  case keep(Substring)
  case remove(Substring)
  case insert(Substring)
}

/// The shortest edit script from `old` to `new` (Myers' algorithm), over the lines between
/// their common first and last lines. A change of more than 2,000 lines is given as all of
/// them removed and added: the search costs the product of the lines and the edits.
private func lineEdits(_ old: [Substring], _ new: [Substring]) -> [LineEdit] {
  var prefix = 0
  while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
  var suffix = 0
  while suffix < old.count - prefix, suffix < new.count - prefix,
    old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
  {
    suffix += 1
  }
  let a = old[prefix..<(old.count - suffix)]
  let b = new[prefix..<(new.count - suffix)]
  var edits = old[..<prefix].map(LineEdit.keep)
  edits += middleEdits(Array(a), Array(b))
  edits += old[(old.count - suffix)...].map(LineEdit.keep)
  return edits
}

private func middleEdits(_ a: [Substring], _ b: [Substring]) -> [LineEdit] {
  let n = a.count
  let m = b.count
  let limit = 2_000
  guard n + m <= 2 * limit, n > 0, m > 0 else {
    return a.map(LineEdit.remove) + b.map(LineEdit.insert)
  }
  let offset = n + m
  var v = [Int](repeating: 0, count: 2 * offset + 2)
  var trace: [[Int]] = []
  search: for d in 0...(n + m) {
    trace.append(v)
    for k in stride(from: -d, through: d, by: 2) {
      var x: Int
      if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
        x = v[offset + k + 1]
      } else {
        x = v[offset + k - 1] + 1
      }
      var y = x - k
      while x < n, y < m, a[x] == b[y] {
        x += 1
        y += 1
      }
      v[offset + k] = x
      if x >= n, y >= m { break search }
    }
  }
  // NB: walks the trace back from the end, collecting the edits in reverse.
  var edits: [LineEdit] = []
  var x = n
  var y = m
  for d in stride(from: trace.count - 1, through: 0, by: -1) {
    let v = trace[d]
    let k = x - y
    let previousK: Int
    if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
      previousK = k + 1
    } else {
      previousK = k - 1
    }
    let previousX = v[offset + previousK]
    let previousY = previousX - previousK
    while x > previousX, y > previousY {
      x -= 1
      y -= 1
      edits.append(.keep(a[x]))
    }
    if d > 0 {
      if x == previousX {
        y -= 1
        edits.append(.insert(b[y]))
      } else {
        x -= 1
        edits.append(.remove(a[x]))
      }
    }
  }
  return edits.reversed()
}

extension String {
  fileprivate func indented() -> String {
    split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.isEmpty ? "" : "  " + $0 }
      .joined(separator: "\n")
  }
}
