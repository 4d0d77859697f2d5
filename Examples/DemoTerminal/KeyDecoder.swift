/// Turns what a terminal sends into ``Key``s, whatever way it is split across reads.
///
/// ncurses reads the terminal and decodes the keys its terminal description knows (arrows, page
/// keys, function keys); they arrive here as ``Input/key(_:)``. Everything else arrives as bytes:
/// UTF-8 text, control characters, and the escape sequences ncurses doesn't know, which it hands
/// back byte by byte. The decoder keeps its state between calls, so that
///
/// - a UTF-8 character split across reads is decoded whole, and invalid UTF-8 becomes U+FFFD;
/// - an escape sequence split across reads, or one that ncurses doesn't know (Ctrl-Delete,
///   say), is one key (``Key/unknown`` when the demo has no use for it), never an escape
///   followed by the sequence's letters as typed keys;
/// - a bracketed paste (`ESC [ 200 ~` text `ESC [ 201 ~`) is one ``Key/paste(_:)`` however many
///   reads it spans;
/// - an escape byte is the Escape key only when nothing follows it in the same burst
///   (``Input/pause``).
///
/// ```swift
/// var decoder = KeyDecoder()
/// decoder.decode([.byte(0x1B), .byte(UInt8(ascii: "["))])   // [] (the sequence goes on)
/// decoder.decode([.byte(UInt8(ascii: "B")), .pause])         // [.down]
/// ```
public struct KeyDecoder: Sendable {
  /// One thing read from the terminal.
  public enum Input: Equatable, Sendable {
    /// A byte ncurses did not decode.
    case byte(UInt8)
    /// A key ncurses decoded.
    case key(Key)
    /// Nothing more is waiting to be read: a burst of input ended.
    case pause
  }

  /// The most a paste keeps (1 MiB); the rest of a larger paste is dropped.
  public static let pasteLimit = 1 << 20

  private enum Mode: Sendable {
    case ground
    /// After an escape byte: the Escape key, Alt with a key, or the start of a sequence.
    case escape
    /// Inside `ESC [`: parameter bytes so far.
    case controlSequence([UInt8])
    /// After `ESC O`: one final byte follows.
    case singleShift
    /// Inside a bracketed paste: its bytes so far, and how much of the end marker was seen.
    case paste([UInt8], matched: Int)
  }

  private var mode = Mode.ground
  /// The bytes of a UTF-8 character begun but not finished.
  private var pendingUTF8: [UInt8] = []
  /// Text decoded in the current burst, turned into characters at its end so that a base
  /// letter and its combining marks make one ``Key/character(_:)``.
  private var text = ""

  public init() {}

  /// The keys that `inputs` complete. What they leave unfinished waits for the next call.
  public mutating func decode(_ inputs: some Sequence<Input>) -> [Key] {
    var keys: [Key] = []
    for input in inputs { decode(input, into: &keys) }
    return keys
  }

  // MARK: - The state machine

  private static let pasteEnd: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]  // ESC [ 2 0 1 ~

  private mutating func decode(_ input: Input, into keys: inout [Key]) {
    switch (mode, input) {
    case (.paste(var bytes, var matched), .byte(let byte)):
      if byte == Self.pasteEnd[matched] {
        matched += 1
        if matched == Self.pasteEnd.count {
          mode = .ground
          keys.append(.paste(String(decoding: bytes, as: UTF8.self)))
          return
        }
      } else {
        // NB: a partial match is pasted text after all; it can't restart the marker, whose
        // only escape byte is its first.
        if bytes.count + matched < Self.pasteLimit {
          bytes += Self.pasteEnd[..<matched]
        }
        matched = 0
        if byte == Self.pasteEnd[0] {
          matched = 1
        } else if bytes.count < Self.pasteLimit {
          bytes.append(byte)
        }
      }
      mode = .paste(bytes, matched: matched)
    case (.paste, .key), (.paste, .pause):
      // NB: ncurses may take pasted text for a key it knows; a paste is text, so that key is
      // dropped. A paste goes on across pauses until its end marker.
      break

    case (.escape, .pause):
      mode = .ground
      keys.append(.escape)
    case (.escape, .byte(UInt8(ascii: "["))):
      mode = .controlSequence([])
    case (.escape, .byte(UInt8(ascii: "O"))):
      mode = .singleShift
    case (.escape, .byte(0x1B)):
      keys.append(.escape)
    case (.escape, .byte):
      // NB: Alt with a key sends escape and the key; the demos have no use for it.
      mode = .ground
      keys.append(.unknown)
    case (.escape, .key):
      mode = .ground
      keys.append(.unknown)

    case (.controlSequence(var parameters), .byte(let byte)):
      switch byte {
      case 0x20...0x3F:
        // NB: a sequence longer than any real key is not one; dropping its bytes keeps the
        // decoder bounded.
        if parameters.count < 16 { parameters.append(byte) }
        mode = .controlSequence(parameters)
      case 0x40...0x7E:
        mode = .ground
        if let key = Self.key(parameters: parameters, final: byte) {
          keys.append(key)
        } else if parameters == Array("200".utf8), byte == UInt8(ascii: "~") {
          flushText(into: &keys)
          mode = .paste([], matched: 0)
        }
      default:
        // A control byte inside a sequence ends it: the sequence was broken.
        mode = .ground
        keys.append(.unknown)
        decode(input, into: &keys)
      }
    case (.controlSequence, .pause), (.singleShift, .pause):
      // NB: the rest of the sequence is in a later read.
      break
    case (.controlSequence, .key(let key)), (.singleShift, .key(let key)):
      mode = .ground
      keys.append(.unknown)
      keys.append(key)

    case (.singleShift, .byte(let byte)):
      mode = .ground
      keys.append(Self.key(parameters: [], final: byte) ?? .unknown)

    case (.ground, .key(let key)):
      // NB: a key can't continue a UTF-8 character: what was begun of one is invalid.
      if !pendingUTF8.isEmpty {
        pendingUTF8 = []
        text.unicodeScalars.append("\u{FFFD}")
      }
      flushText(into: &keys)
      keys.append(key)
    case (.ground, .pause):
      flushText(into: &keys)
    case (.ground, .byte(let byte)):
      decodeGround(byte, into: &keys)
    }
  }

  private mutating func decodeGround(_ byte: UInt8, into keys: inout [Key]) {
    if !pendingUTF8.isEmpty || byte >= 0x80 {
      decodeUTF8(byte, into: &keys)
      return
    }
    switch byte {
    case 0x20..<0x7F:
      text.unicodeScalars.append(Unicode.Scalar(byte))
      return
    default:
      break
    }
    flushText(into: &keys)
    switch byte {
    case 0x1B: mode = .escape
    case 0x0D, 0x0A: keys.append(.enter)
    case 0x7F, 0x08: keys.append(.backspace)
    case 0x09: keys.append(.tab)
    case 0x01...0x1A: keys.append(.control(Character(Unicode.Scalar(byte + 0x60))))
    default: keys.append(.unknown)
    }
  }

  /// Adds `byte` to the UTF-8 character being read. A byte that can't continue it ends it as
  /// U+FFFD and is read again on its own, as `String(decoding:as:)` repairs text.
  private mutating func decodeUTF8(_ byte: UInt8, into keys: inout [Key]) {
    if pendingUTF8.isEmpty {
      switch byte {
      case 0xC2...0xDF, 0xE0...0xEF, 0xF0...0xF4:
        pendingUTF8 = [byte]
      default:
        // A continuation byte with no lead, or a byte that never appears in UTF-8.
        text.unicodeScalars.append("\u{FFFD}")
      }
      return
    }
    guard Self.continues(pendingUTF8, with: byte) else {
      pendingUTF8 = []
      text.unicodeScalars.append("\u{FFFD}")
      decodeGround(byte, into: &keys)
      return
    }
    pendingUTF8.append(byte)
    let length = pendingUTF8[0] >= 0xF0 ? 4 : pendingUTF8[0] >= 0xE0 ? 3 : 2
    guard pendingUTF8.count == length else { return }
    text += String(decoding: pendingUTF8, as: UTF8.self)
    pendingUTF8 = []
  }

  /// Whether `byte` may follow `lead` (the bytes of a character so far), by the ranges of the
  /// Unicode standard's table 3-7 (no overlong forms, no surrogates, nothing past U+10FFFF).
  private static func continues(_ lead: [UInt8], with byte: UInt8) -> Bool {
    guard lead.count == 1 else { return (0x80...0xBF).contains(byte) }
    switch lead[0] {
    case 0xE0: return (0xA0...0xBF).contains(byte)
    case 0xED: return (0x80...0x9F).contains(byte)
    case 0xF0: return (0x90...0xBF).contains(byte)
    case 0xF4: return (0x80...0x8F).contains(byte)
    default: return (0x80...0xBF).contains(byte)
    }
  }

  private mutating func flushText(into keys: inout [Key]) {
    guard !text.isEmpty else { return }
    for character in text { keys.append(.character(character)) }
    text = ""
  }

  /// The key a control sequence (`ESC [ parameters final`) or `ESC O final` stands for, with
  /// any modifiers (`ESC [ 1 ; 5 C` is Ctrl-Right) ignored.
  static func key(parameters: [UInt8], final: UInt8) -> Key? {
    let first = parameters.split(separator: UInt8(ascii: ";")).first.map {
      String(decoding: $0, as: UTF8.self)
    }
    switch final {
    case UInt8(ascii: "A"): return .up
    case UInt8(ascii: "B"): return .down
    case UInt8(ascii: "C"): return .right
    case UInt8(ascii: "D"): return .left
    case UInt8(ascii: "H"): return .home
    case UInt8(ascii: "F"): return .end
    case UInt8(ascii: "~"):
      switch first {
      case "1", "7": return .home
      case "4", "8": return .end
      case "3": return .delete
      case "5": return .pageUp
      case "6": return .pageDown
      case "200": return nil
      default: return .unknown
      }
    default: return .unknown
    }
  }
}
