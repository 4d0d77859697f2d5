import CNcursesw

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a run of text is drawn.
public struct TextStyle: OptionSet, Hashable, Sendable {
  public let rawValue: UInt32
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  // NB: the same bits as STATECRAFT_* in CNcursesw's shim.h.
  public static let bold = TextStyle(rawValue: 1)
  public static let dim = TextStyle(rawValue: 2)
  public static let inverse = TextStyle(rawValue: 4)
  public static let red = TextStyle(rawValue: 8)
  public static let green = TextStyle(rawValue: 16)
  public static let yellow = TextStyle(rawValue: 32)
}

/// A row of a full-screen demo: runs of text, each with a style.
///
/// The text is what a person typed or a file held; ``FullScreen`` shows its control characters
/// escaped and cuts it to the screen's width in display cells, so a row is always one row.
///
/// ```swift
/// let header: StyledText = Text.bold("Statecraft todos") + "  " + summary
/// ```
public struct StyledText: Equatable, Sendable, ExpressibleByStringLiteral {
  /// A stretch of text in one style.
  public struct Run: Equatable, Sendable {
    public var text: String
    public var style: TextStyle

    public init(text: String, style: TextStyle) {
      self.text = text
      self.style = style
    }
  }

  public var runs: [Run]

  public init(_ text: String = "", style: TextStyle = []) {
    runs = text.isEmpty ? [] : [Run(text: text, style: style)]
  }

  public init(stringLiteral value: String) {
    self.init(value)
  }

  /// The text without its styles.
  public var plain: String { runs.map(\.text).joined() }

  public static func + (lhs: StyledText, rhs: StyledText) -> StyledText {
    var result = lhs
    result.runs += rhs.runs
    return result
  }

  public static func + (lhs: StyledText, rhs: String) -> StyledText { lhs + StyledText(rhs) }
  public static func + (lhs: String, rhs: StyledText) -> StyledText { StyledText(lhs) + rhs }

  /// The text with its control characters escaped, cut to `width` display cells.
  public func fitted(to width: Int) -> StyledText {
    var result = StyledText()
    var remaining = width
    for run in runs where remaining > 0 {
      let text = Text.fit(
        Text.escaped(Text.start(of: run.text, width: remaining)), width: remaining)
      remaining -= Text.cellWidth(text)
      if !text.isEmpty { result.runs.append(Run(text: text, style: run.style)) }
    }
    return result
  }
}

/// Styling, escaping and measuring of the text the demos show.
public enum Text {
  public static func bold(_ text: String) -> StyledText { StyledText(text, style: .bold) }
  public static func dim(_ text: String) -> StyledText { StyledText(text, style: .dim) }
  public static func inverse(_ text: String) -> StyledText { StyledText(text, style: .inverse) }
  public static func green(_ text: String) -> StyledText { StyledText(text, style: .green) }
  public static func red(_ text: String) -> StyledText { StyledText(text, style: .red) }
  public static func yellow(_ text: String) -> StyledText { StyledText(text, style: .yellow) }

  /// `text` with everything a terminal would act on instead of showing it written out:
  /// escape as `\e`, newline as `\n`, tab as `\t`, other control characters as `^X` (`^?` for
  /// delete), and C1 controls, bidirectional overrides and characters the terminal can't print
  /// as `\u{…}`. Invalid UTF-8 was already turned into U+FFFD when the text was decoded.
  ///
  /// A title from someone else's file can't set the window title, clear the screen or move the
  /// cursor: it is shown, not obeyed.
  ///
  /// - Parameter keepingLineBreaks: keep `\n` as a line break (for line mode's multi-line
  ///   output, such as a change log entry).
  public static func escaped(_ text: String, keepingLineBreaks: Bool = false) -> String {
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x1B: result += "\\e"
      case 0x0A: result += keepingLineBreaks ? "\n" : "\\n"
      case 0x09: result += "\\t"
      case 0x00..<0x20: result += "^" + String(Unicode.Scalar(UInt8(scalar.value) + 0x40))
      case 0x7F: result += "^?"
      case 0x20..<0x7F: result.unicodeScalars.append(scalar)
      default:
        if isShownAsIs(scalar) {
          result.unicodeScalars.append(scalar)
        } else {
          result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
      }
    }
    return result
  }

  /// The start of `text` that can fill `width` cells once escaped, without going through the
  /// rest: a title of a million characters costs what a screen shows of it, not a million.
  ///
  /// NB: every character takes at least one cell, but for a few that take none (combining marks
  /// join the character before them); those are rare enough that twice the width, and some,
  /// covers the screen.
  public static func start(of text: String, width: Int) -> String {
    let bound = 2 * max(0, width) + 64
    guard text.utf8.count > bound else { return text }
    return String(text.prefix(bound))
  }

  /// The end of `text` that can fill `width` cells once escaped (see ``start(of:width:)``).
  public static func end(of text: String, width: Int) -> String {
    let bound = 2 * max(0, width) + 64
    guard text.utf8.count > bound else { return text }
    return String(text.suffix(bound))
  }

  /// How many display cells `text` takes: 2 for a wide (CJK, emoji) character, 0 for a
  /// combining mark, 1 for the rest, by the C library's `wcwidth` for UTF-8. `text` is expected
  /// escaped (see ``escaped(_:keepingLineBreaks:)``); a control character counts 0.
  public static func cellWidth(_ text: String) -> Int {
    var width = 0
    for scalar in text.unicodeScalars { width += cellWidth(of: scalar) }
    return width
  }

  /// `text` cut to at most `width` display cells, never inside a character (a wide character
  /// that would stick out is left out, with a combining mark kept on its letter).
  public static func fit(_ text: String, width: Int) -> String {
    guard width > 0 else { return "" }
    if text.utf8.count <= width, text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
    var result = ""
    var used = 0
    for character in text {
      var characterWidth = 0
      for scalar in character.unicodeScalars { characterWidth += cellWidth(of: scalar) }
      guard used + characterWidth <= width else { break }
      used += characterWidth
      result.append(character)
    }
    return result
  }

  /// `text`, escaped (see ``escaped(_:keepingLineBreaks:)``), in lines of at most `width`
  /// display cells, broken after a space where one is near and inside a word where not; at most
  /// `maxLines` lines, the last one ending in "…" when text was left out.
  ///
  /// ```swift
  /// Text.wrap("Saved to /tmp/todos.conflict-1.json instead.", width: 20, maxLines: 3)
  /// // ["Saved to /tmp/todos.", "conflict-1.json ", "instead."]
  /// ```
  public static func wrap(_ text: String, width: Int, maxLines: Int) -> [String] {
    guard width > 0, maxLines > 0 else { return [] }
    var rest = Substring(escaped(text))
    var lines: [String] = []
    while !rest.isEmpty {
      if lines.count == maxLines - 1, cellWidth(String(rest)) > width {
        lines.append(fit(String(rest), width: width - 1) + "…")
        break
      }
      var line = Substring(fit(String(rest), width: width))
      if line.isEmpty { line = rest.prefix(1) }
      // NB: break after the last space of the line, unless that leaves it less than half full.
      if line.count < rest.count, let space = line.lastIndex(of: " "),
        cellWidth(String(line[...space])) * 2 >= width
      {
        line = line[...space]
      }
      lines.append(String(line))
      rest = rest.dropFirst(line.count)
    }
    return lines
  }

  /// The cells one scalar takes.
  public static func cellWidth(of scalar: Unicode.Scalar) -> Int {
    if scalar.value >= 0x20 && scalar.value < 0x7F { return 1 }
    return max(0, Int(wideCharacterWidth(scalar)))
  }

  // MARK: - The C library's character widths

  /// Whether a terminal shows `scalar` as itself: it is printable and doesn't reorder or break
  /// the line around it.
  static func isShownAsIs(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x80..<0xA0: return false  // C1 controls: 0x9B is CSI on some terminals.
    case 0x202A...0x202E, 0x2066...0x2069: return false  // bidirectional overrides
    case 0x2028, 0x2029: return false  // line and paragraph separators
    default: return wideCharacterWidth(scalar) >= 0
    }
  }

  /// `wcwidth` under a UTF-8 locale, whatever the process's locale is (tests run in "C").
  private static func wideCharacterWidth(_ scalar: Unicode.Scalar) -> Int32 {
    guard let locale = utf8Locale else {
      // NB: without a UTF-8 locale on the machine, a rough guess: marks take no cell.
      switch scalar.properties.generalCategory {
      case .nonspacingMark, .enclosingMark, .format: return 0
      case .control, .unassigned, .surrogate: return -1
      default: return scalar.properties.isEmojiPresentation ? 2 : 1
      }
    }
    let previous = uselocale(locale)
    defer { uselocale(previous) }
    return statecraft_wcwidth(wchar_t(bitPattern: scalar.value))
  }

  // NB: created once and never freed or changed; `uselocale` only reads it.
  nonisolated(unsafe) private static let utf8Locale: locale_t? =
    newlocale(LC_CTYPE_MASK, "C.UTF-8", nil) ?? newlocale(LC_CTYPE_MASK, "en_US.UTF-8", nil)
}

/// The key hints at the bottom of a full-screen demo, laid out to the screen's width.
public enum KeyHints {
  /// `hints` joined by " · " into at most `maxLines` lines of `width` cells, with `quit` always
  /// shown at the end: when they don't all fit, hints are dropped from the end of `hints`, never
  /// the quit key.
  ///
  /// ```swift
  /// KeyHints.lines(["↑↓ move", "a add"], quit: "q quit", width: 20, maxLines: 1)
  /// // ["↑↓ move · q quit"]: "a add" didn't fit
  /// ```
  public static func lines(_ hints: [String], quit: String, width: Int, maxLines: Int) -> [String] {
    var kept = hints
    while true {
      let lines = wrap(kept + [quit], width: width)
      if lines.count <= max(1, maxLines) || kept.isEmpty { return lines }
      kept.removeLast()
    }
  }

  private static func wrap(_ hints: [String], width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for hint in hints {
      if line.isEmpty {
        line = hint
      } else if Text.cellWidth(line) + 3 + Text.cellWidth(hint) <= width {
        line += " · " + hint
      } else {
        lines.append(line)
        line = hint
      }
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }
}
