/// The text typed at a prompt in a full-screen demo: characters are added at the end and
/// backspace removes the last one.
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
