/// A key press read from a terminal in raw mode.
public enum Key: Equatable, Sendable {
  /// A printable character (letters, digits, punctuation, space).
  case character(Character)
  case enter
  case backspace
  case escape
  case tab
  case up
  case down
  case left
  case right
  /// A control combination, named by its letter: `.control("c")` is Ctrl-C.
  case control(Character)
  /// A byte sequence the parser does not know (an unsupported escape sequence, say).
  case unknown
}

/// Turns the bytes a raw-mode terminal sends into ``Key``s.
///
/// Bytes arrive in chunks (one `read` each). An escape sequence is expected within one chunk, as
/// terminals send it in one write; a lone escape byte at the end of a chunk is the escape key.
public struct KeyParser: Sendable {
  public init() {}

  /// The keys in one chunk of bytes.
  public func keys(in bytes: [UInt8]) -> [Key] {
    var keys: [Key] = []
    var index = 0
    var utf8: [UInt8] = []

    func flushText() {
      guard !utf8.isEmpty else { return }
      for character in String(decoding: utf8, as: UTF8.self) { keys.append(.character(character)) }
      utf8.removeAll()
    }

    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case 0x1B:
        flushText()
        guard index < bytes.count else {
          keys.append(.escape)
          break
        }
        guard bytes[index] == UInt8(ascii: "[") || bytes[index] == UInt8(ascii: "O") else {
          keys.append(.escape)
          break
        }
        index += 1
        // NB: a CSI sequence ends with a byte in 0x40...0x7E; parameters come before it.
        var final: UInt8?
        while index < bytes.count {
          let next = bytes[index]
          index += 1
          if (0x40...0x7E).contains(next) {
            final = next
            break
          }
        }
        switch final {
        case UInt8(ascii: "A"): keys.append(.up)
        case UInt8(ascii: "B"): keys.append(.down)
        case UInt8(ascii: "C"): keys.append(.right)
        case UInt8(ascii: "D"): keys.append(.left)
        default: keys.append(.unknown)
        }
      case 0x0D, 0x0A:
        flushText()
        keys.append(.enter)
      case 0x7F, 0x08:
        flushText()
        keys.append(.backspace)
      case 0x09:
        flushText()
        keys.append(.tab)
      case 0x01...0x1A:
        flushText()
        keys.append(.control(Character(UnicodeScalar(byte + 0x60))))
      case 0x00...0x1F:
        flushText()
        keys.append(.unknown)
      default:
        utf8.append(byte)
      }
    }
    flushText()
    return keys
  }
}
