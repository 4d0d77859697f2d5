import CNcursesw
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's terminal: whether the demo runs full screen or line by line.
public enum Terminal {
  /// True when standard input and output are both a terminal, so a demo draws full screen;
  /// false when input is piped, so it reads commands line by line.
  public static var isInteractive: Bool {
    isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
  }
}

/// Prints `text` and a newline for line mode, with every control character shown escaped (see
/// ``Text/escaped(_:keepingLineBreaks:)``): text from a file or from piped input is shown, never
/// obeyed by the terminal. Line breaks in `text` still separate lines.
public func printLine(_ text: String) {
  print(Text.escaped(text, keepingLineBreaks: true))
}

/// Writes `message` and a newline to standard error, escaped as ``printLine(_:)`` escapes:
/// an error message names files and repeats what was typed, and a path or a value holding
/// control characters must not drive the terminal it is shown on.
public func printError(_ message: String) {
  let bytes = Array((Text.escaped(message, keepingLineBreaks: true) + "\n").utf8)
  bytes.withUnsafeBytes { buffer in
    var offset = 0
    while offset < buffer.count {
      let written = write(STDERR_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
      if written < 0, errno == EINTR { continue }
      guard written > 0 else { return }
      offset += written
    }
  }
}
