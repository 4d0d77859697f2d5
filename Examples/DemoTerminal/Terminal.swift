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

/// Standard input as an async stream, read on a thread of its own so that the main actor stays
/// free to run the store's effects while the demo waits for input.
public enum StandardInput {
  /// The lines of standard input, without their newline; finishes at end of input, or on
  /// SIGINT, SIGTERM or SIGHUP. Invalid UTF-8 is read as U+FFFD.
  ///
  /// A signal ends the stream as the end of input does, so that the demo quits as usual and
  /// finishes its work (the todo app's last save); the process then ends by that signal, as a
  /// shell expects. A second signal ends it at once.
  public static func lines() -> AsyncStream<String> {
    AsyncStream { continuation in
      LineModeSignals.install { continuation.finish() }
      let thread = Thread {
        while let line = readLine(strippingNewline: true) { continuation.yield(line) }
        continuation.finish()
      }
      thread.start()
    }
  }
}

/// SIGINT, SIGTERM and SIGHUP in line mode: the first one ends the input, the process ends by it
/// once the demo has quit; a second one has the default effect at once.
private enum LineModeSignals {
  static let handled = [SIGINT, SIGTERM, SIGHUP]
  nonisolated(unsafe) static var sources: [any DispatchSourceSignal] = []
  nonisolated(unsafe) static var exitSignal: Int32 = 0

  /// NB: called once per stream, on the thread that starts it; the handlers run on a queue of
  /// their own and only read `sources` after this has returned.
  static func install(onSignal: @escaping @Sendable () -> Void) {
    guard sources.isEmpty else { return }
    let queue = DispatchQueue(label: "statecraft.line-mode-signals")
    for number in handled {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler {
        guard exitSignal == 0 else { return }
        exitSignal = number
        // NB: a second signal now ends the process at once.
        for other in handled { signal(other, SIG_DFL) }
        atexit {
          // NB: standard output only: `fflush(nil)` would wait for the lock on standard input,
          // which the reading thread holds while it waits for a line that may never come.
          fflush(statecraft_stdout())
          signal(LineModeSignals.exitSignal, SIG_DFL)
          var signals = sigset_t()
          sigemptyset(&signals)
          sigaddset(&signals, LineModeSignals.exitSignal)
          pthread_sigmask(SIG_UNBLOCK, &signals, nil)
          raise(LineModeSignals.exitSignal)
        }
        onSignal()
      }
      source.resume()
      sources.append(source)
    }
  }
}
