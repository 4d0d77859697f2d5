/// A full-screen frame that redraws only the rows that changed since the last frame.
///
/// ```swift
/// var screen = Screen()
/// write(screen.update(to: ["Todos", "  [ ] Buy milk"], width: 80))   // draws both rows
/// write(screen.update(to: ["Todos", "  [x] Buy milk"], width: 80))   // redraws row 2 only
/// ```
public struct Screen: Sendable {
  private var previous: [String] = []
  private var hasDrawn = false

  public init() {}

  /// The escape sequences that turn the last frame into `lines`, each line cut to `width`
  /// visible columns. Returns an empty string when nothing changed.
  public mutating func update(to lines: [String], width: Int) -> String {
    let fitted = lines.map { Text.fit($0, width: width) }
    var output = hasDrawn ? "" : "\u{1B}[2J"
    for row in 0..<max(fitted.count, previous.count) {
      let new = row < fitted.count ? fitted[row] : ""
      let old = row < previous.count ? previous[row] : nil
      guard !hasDrawn || new != old else { continue }
      output += "\u{1B}[\(row + 1);1H\(new)\u{1B}[0m\u{1B}[K"
    }
    previous = fitted
    hasDrawn = true
    return output
  }

  /// Forgets the last frame, so that the next update redraws every row (after a resize).
  public mutating func invalidate() {
    previous = []
    hasDrawn = false
  }
}

/// Styling and measuring of terminal text that may hold ANSI style sequences.
public enum Text {
  public static func bold(_ text: String) -> String { "\u{1B}[1m\(text)\u{1B}[22m" }
  public static func dim(_ text: String) -> String { "\u{1B}[2m\(text)\u{1B}[22m" }
  public static func inverse(_ text: String) -> String { "\u{1B}[7m\(text)\u{1B}[27m" }
  public static func green(_ text: String) -> String { "\u{1B}[32m\(text)\u{1B}[39m" }
  public static func red(_ text: String) -> String { "\u{1B}[31m\(text)\u{1B}[39m" }
  public static func yellow(_ text: String) -> String { "\u{1B}[33m\(text)\u{1B}[39m" }

  /// The text without its style sequences: what a person sees.
  public static func plain(_ text: String) -> String {
    var result = ""
    var inEscape = false
    for character in text {
      if inEscape {
        if character.isLetter { inEscape = false }
      } else if character == "\u{1B}" {
        inEscape = true
      } else {
        result.append(character)
      }
    }
    return result
  }

  /// `text` cut to `width` visible characters, its style sequences kept.
  public static func fit(_ text: String, width: Int) -> String {
    var result = ""
    var visible = 0
    var inEscape = false
    for character in text {
      if inEscape {
        result.append(character)
        if character.isLetter { inEscape = false }
      } else if character == "\u{1B}" {
        inEscape = true
        result.append(character)
      } else if visible < width {
        result.append(character)
        visible += 1
      }
    }
    return result
  }
}
