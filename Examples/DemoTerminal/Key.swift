/// A key press, or another event of a full-screen terminal, as a demo sees it.
public enum Key: Equatable, Sendable {
  /// A printable character (letters, digits, punctuation, space, any script, emoji).
  case character(Character)
  /// Text pasted in one go (bracketed paste), as typed text, never as keys.
  case paste(String)
  case enter
  case backspace
  case delete
  case escape
  case tab
  case up
  case down
  case left
  case right
  case home
  case end
  case pageUp
  case pageDown
  /// A control combination, named by its letter: `.control("c")` is Ctrl-C.
  case control(Character)
  /// The terminal changed size: lay the screen out again.
  case resize
  /// The screen must be drawn again in full (Ctrl-L, or back from a suspension).
  case redraw
  /// Something the demo has no use for: an unsupported escape sequence, a function key, Alt
  /// with a key.
  case unknown
}
