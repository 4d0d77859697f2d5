import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Standard input as an async sequence of lines, read on a thread of its own so that the main
/// actor stays free to run the store's effects while the demo waits for input.
public enum StandardInput {
  /// The longest line read: 64 KiB. A longer one is skipped whole (``InputLine/tooLong(bytes:)``)
  /// without being kept, however long it is.
  public static let lineLimit = 64 << 10

  /// How many lines are read ahead of the demo: the reading thread waits while this many are
  /// read and not yet taken, so that fast input is not kept in memory whole.
  static let readAhead = 16

  /// The lines of standard input, without their line break; finishes at end of input, or on
  /// SIGINT, SIGTERM or SIGHUP. Invalid UTF-8 is read as U+FFFD.
  ///
  /// A signal ends the lines as the end of input does, so that the demo quits as usual and
  /// finishes its work (the todo app's last save); the process then ends by that signal, as a
  /// shell expects. More signals don't cut that work short; a deadline bounds it (see
  /// `Signals`, which the full screen shares).
  @MainActor
  public static func lines() -> InputLines {
    let (stream, continuation) = AsyncStream.makeStream(of: InputLine.self)
    let credits = DispatchSemaphore(value: readAhead)
    let listening = Signals.listen(to: [], on: DispatchQueue(label: "statecraft.input-signals")) {
      number in
      if Signals.quits(number) { continuation.finish() }
    }
    if !listening || Signals.hasQuitSignal { continuation.finish() }
    let thread = Thread {
      var splitter = LineSplitter(limit: lineLimit)
      var buffer = [UInt8](repeating: 0, count: 1 << 16)
      func send(_ lines: [InputLine]) {
        for line in lines {
          credits.wait()
          continuation.yield(line)
        }
      }
      while true {
        let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { break }
        send(splitter.split(buffer[0..<count]))
      }
      send(splitter.finish())
      continuation.finish()
    }
    thread.start()
    return InputLines(stream: stream, credits: credits)
  }
}

/// One line of standard input.
public enum InputLine: Equatable, Sendable {
  /// A line's text, without its line break (`\n` or `\r\n`).
  case text(String)
  /// A line longer than the limit, skipped: how many bytes it had.
  case tooLong(bytes: Int)
}

/// The lines of standard input (``StandardInput/lines()``): each one taken lets the reading
/// thread read one more.
public struct InputLines: AsyncSequence, Sendable {
  public typealias Element = InputLine

  let stream: AsyncStream<InputLine>
  let credits: DispatchSemaphore

  public struct AsyncIterator: AsyncIteratorProtocol {
    var lines: AsyncStream<InputLine>.Iterator
    let credits: DispatchSemaphore

    // NB: on the caller's actor, as the stream's own iterator does: a demo reads its input on
    // the main actor, and a hop to the concurrency pool would wait when the pool is busy.
    public mutating func next(isolation actor: isolated (any Actor)?) async -> InputLine? {
      let line = await lines.next(isolation: actor)
      if line != nil { credits.signal() }
      return line
    }

    public mutating func next() async -> InputLine? {
      await next(isolation: nil)
    }
  }

  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(lines: stream.makeAsyncIterator(), credits: credits)
  }
}

/// Cuts bytes into lines of at most `limit` bytes. A longer line is not kept: only its length
/// is counted until its end, so that a line of gigabytes costs no memory.
public struct LineSplitter: Sendable {
  /// The most bytes a line may have, its line break not counted.
  public let limit: Int
  private var line: [UInt8] = []
  /// The bytes of the current line so far, once it is too long.
  private var skipped: Int?

  public init(limit: Int) {
    self.limit = limit
  }

  /// The lines that `bytes` end.
  public mutating func split(_ bytes: ArraySlice<UInt8>) -> [InputLine] {
    var lines: [InputLine] = []
    var rest = bytes
    while let end = rest.firstIndex(of: UInt8(ascii: "\n")) {
      take(rest[..<end])
      lines.append(endLine())
      rest = rest[(end + 1)...]
    }
    take(rest)
    return lines
  }

  /// The last line, when the input ends without a line break.
  public mutating func finish() -> [InputLine] {
    line.isEmpty && skipped == nil ? [] : [endLine()]
  }

  private mutating func take(_ bytes: ArraySlice<UInt8>) {
    guard !bytes.isEmpty else { return }
    if let skipped {
      self.skipped = skipped + bytes.count
    } else if line.count + bytes.count > limit + 1 {
      // NB: one byte over the limit is kept for now: it may be the `\r` of a `\r\n`.
      skipped = line.count + bytes.count
      line = []
    } else {
      line += bytes
    }
  }

  private mutating func endLine() -> InputLine {
    defer {
      line.removeAll(keepingCapacity: true)
      skipped = nil
    }
    if line.last == UInt8(ascii: "\r") { line.removeLast() }
    if let skipped { return .tooLong(bytes: skipped) }
    if line.count > limit { return .tooLong(bytes: line.count) }
    return .text(String(decoding: line, as: UTF8.self))
  }
}
