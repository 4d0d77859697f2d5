/// The text typed at a prompt in a full-screen demo: characters are added at the end and
/// backspace removes the last one. A paste is added whole, its line breaks turned into spaces.
public struct LineEditor: Equatable, Sendable {
  /// What the prompt asks for ("New todo", "Search").
  public var prompt: String
  /// The text typed so far.
  public var text: String

  public init(prompt: String, text: String = "") {
    self.prompt = prompt
    self.text = text
  }

  /// What a key does to the line.
  public enum Outcome: Equatable, Sendable {
    /// The text changed or the key was ignored; keep editing.
    case editing
    /// Enter: the text is done.
    case submitted(String)
    /// Escape or Ctrl-C: the prompt is abandoned.
    case cancelled
  }

  /// Applies a key to the line.
  public mutating func handle(_ key: Key) -> Outcome {
    switch key {
    case .character(let character):
      text.append(character)
      return .editing
    case .paste(let pasted):
      // NB: the line is one line: pasted line breaks and tabs become spaces.
      text += String(pasted.map { $0.isNewline || $0 == "\t" ? " " : $0 })
      return .editing
    case .backspace:
      if !text.isEmpty { text.removeLast() }
      return .editing
    case .enter:
      return .submitted(text)
    case .escape, .control("c"):
      return .cancelled
    default:
      return .editing
    }
  }
}

extension LineEditor {
  /// The prompt as a full-screen row of `width` cells: the prompt, the end of the text (the
  /// start gives way to "…" when it is too long) and a block where the next character goes.
  public func row(width: Int) -> StyledText {
    let label = "\(prompt): "
    let available = width - Text.cellWidth(Text.escaped(label)) - 1
    let end = Text.end(of: text, width: available)
    var shown = Text.escaped(end)
    if end.utf8.count < text.utf8.count || Text.cellWidth(shown) > available, available > 1 {
      var tail = ""
      var used = 1
      for character in shown.reversed() {
        let characterWidth = Text.cellWidth(String(character))
        guard used + characterWidth <= available else { break }
        used += characterWidth
        tail.insert(character, at: tail.startIndex)
      }
      shown = "…" + tail
    }
    return Text.bold(label) + shown + Text.inverse(" ")
  }
}
