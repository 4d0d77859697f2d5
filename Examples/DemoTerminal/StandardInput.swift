import Dispatch
import Foundation

/// Standard input as an async stream, read on a thread of its own so that the main actor stays
/// free to run the store's effects while the demo waits for input.
public enum StandardInput {
  /// The lines of standard input, without their newline; finishes at end of input, or on
  /// SIGINT, SIGTERM or SIGHUP. Invalid UTF-8 is read as U+FFFD.
  ///
  /// A signal ends the lines as the end of input does, so that the demo quits as usual and
  /// finishes its work (the todo app's last save); the process then ends by that signal, as a
  /// shell expects. More signals don't cut that work short; a deadline bounds it (see
  /// `Signals`, which the full screen shares).
  @MainActor
  public static func lines() -> AsyncStream<String> {
    let (stream, continuation) = AsyncStream.makeStream(of: String.self)
    let listening = Signals.listen(to: [], on: DispatchQueue(label: "statecraft.input-signals")) {
      number in
      if Signals.quits(number) { continuation.finish() }
    }
    if !listening || Signals.hasQuitSignal { continuation.finish() }
    let thread = Thread {
      while let line = readLine(strippingNewline: true) { continuation.yield(line) }
      continuation.finish()
    }
    thread.start()
    return stream
  }
}
