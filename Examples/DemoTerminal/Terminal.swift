import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's terminal: whether the demo runs full screen, its size, raw mode and output.
public enum Terminal {
  /// True when standard input and output are both a terminal, so a demo draws full screen;
  /// false when input is piped, so it reads commands line by line.
  public static var isInteractive: Bool {
    isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
  }

  /// The terminal's size in rows and columns (24 × 80 when it can't be read).
  public static var size: (rows: Int, columns: Int) {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0
    else { return (24, 80) }
    return (Int(size.ws_row), Int(size.ws_col))
  }

  /// Writes `text` to standard output at once, unbuffered.
  public static func write(_ text: String) {
    guard !text.isEmpty else { return }
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBytes { buffer in
        Foundation.write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
      }
      if written <= 0 { return }
      offset += written
    }
  }

  /// Puts the terminal in raw mode on the alternate screen with the cursor hidden.
  ///
  /// The terminal is restored by ``leaveFullScreen()``, at exit, and on SIGTERM or SIGHUP, so that
  /// a demo never leaves the shell in raw mode.
  public static func enterFullScreen() {
    var raw = termios()
    guard tcgetattr(STDIN_FILENO, &raw) == 0 else { return }
    savedAttributes = raw
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
    raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
    raw.c_cflag |= tcflag_t(CS8)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
    write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
    atexit { Terminal.leaveFullScreen() }
    signal(SIGTERM) { _ in
      Terminal.leaveFullScreen()
      _exit(143)
    }
    signal(SIGHUP) { _ in
      Terminal.leaveFullScreen()
      _exit(129)
    }
  }

  /// Leaves raw mode and the alternate screen, showing the cursor again. Safe to call twice.
  public static func leaveFullScreen() {
    guard var attributes = savedAttributes else { return }
    savedAttributes = nil
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &attributes)
    write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
  }

  // NB: written only by `enterFullScreen` on the main thread before any signal handler is
  // installed, and read by the handlers and `atexit`; a demo has one terminal.
  nonisolated(unsafe) private static var savedAttributes: termios?
}

/// Standard input as async streams, read on a thread of its own so that the main actor stays
/// free to run the store's effects while the demo waits for input.
public enum StandardInput {
  /// The lines of standard input, without their newline; finishes at end of input.
  public static func lines() -> AsyncStream<String> {
    AsyncStream { continuation in
      let thread = Thread {
        while let line = readLine(strippingNewline: true) { continuation.yield(line) }
        continuation.finish()
      }
      thread.start()
    }
  }

  /// The keys pressed, parsed from raw-mode input; finishes when input closes.
  public static func keys() -> AsyncStream<Key> {
    AsyncStream { continuation in
      let thread = Thread {
        let parser = KeyParser()
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
          let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, 64) }
          guard count > 0 else { break }
          for key in parser.keys(in: Array(buffer[0..<count])) { continuation.yield(key) }
        }
        continuation.finish()
      }
      thread.start()
    }
  }
}
