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

/// Standard input as an async stream, read on a thread of its own so that the main actor stays
/// free to run the store's effects while the demo waits for input.
public enum StandardInput {
  /// The lines of standard input, without their newline; finishes at end of input. Invalid
  /// UTF-8 is read as U+FFFD.
  public static func lines() -> AsyncStream<String> {
    AsyncStream { continuation in
      let thread = Thread {
        while let line = readLine(strippingNewline: true) { continuation.yield(line) }
        continuation.finish()
      }
      thread.start()
    }
  }
}
