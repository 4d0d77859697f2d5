import CNcursesw
import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The terminal run full screen through ncurses (its wide-character build): keys in, rows out.
///
/// ncurses reads the terminal and decodes the keys its terminal description knows, keeps what is
/// on screen and writes only what changed, and resizes its screen with the terminal; a
/// ``KeyDecoder`` turns the rest into keys (UTF-8 text, pastes, unknown sequences). Everything
/// runs on the main actor: input is read when the terminal has some (a dispatch source on the
/// main queue), never by a thread of its own, because ncurses is not thread-safe.
///
/// What the session guarantees:
/// - SIGINT, SIGTERM and SIGHUP end ``keys`` so the demo quits as on `q` (saves finish), the
///   terminal is restored, and the process then ends by that signal; a second one restores the
///   terminal at once and ends the process.
/// - Ctrl-Z and SIGTSTP restore the terminal and suspend; on resume the screen is drawn again
///   (``Key/redraw``). A resize arrives as ``Key/resize``, Ctrl-L as ``Key/redraw``.
/// - Bracketed paste is turned on, so a paste arrives as one ``Key/paste(_:)``.
/// - ``draw(_:)`` shows every control character of the text escaped and cuts each row to the
///   screen's width in display cells.
///
/// ```swift
/// guard let screen = FullScreen.start() else { return }
/// defer { screen.close() }
/// for await key in screen.keys {
///   if key.quits { return }
///   screen.draw([Text.bold("Title"), "a row"])
/// }
/// ```
@MainActor
public final class FullScreen {
  /// The keys pressed, and resizes and redraws; finishes when input ends or on SIGINT, SIGTERM
  /// or SIGHUP.
  public let keys: AsyncStream<Key>

  private let continuation: AsyncStream<Key>.Continuation
  private var decoder = KeyDecoder()
  private var sources: [any DispatchSourceRead] = []
  private var emptyReads = 0
  private var isClosed = false

  /// Whether ncurses can drive this terminal full screen: its terminal description is known and
  /// can move the cursor. When it can't, a demo reads commands line by line instead.
  public static var isSupported: Bool {
    var error: Int32 = 0
    guard setupterm(nil, STDOUT_FILENO, &error) == OK else { return false }
    let canMoveCursor = String(cString: statecraft_terminfo_string("cup")) != ""
    statecraft_release_terminfo()
    return canMoveCursor
  }

  /// Takes over the terminal: raw mode, the alternate screen, bracketed paste. Returns nil, after
  /// saying why on standard error, when the terminal can't be driven.
  public static func start() -> FullScreen? {
    useUTF8Locale()
    guard tcgetattr(STDIN_FILENO, &SignalState.shellMode) == 0 else {
      printError("error: standard input is not a terminal; pipe commands in instead.")
      return nil
    }
    guard SignalState.openPipe() else {
      printError("error: could not set up signal handling (\(String(cString: strerror(errno)))).")
      return nil
    }
    // NB: installed before ncurses starts, so that it leaves these signals to us (it installs
    // its own handlers only where a signal has the default one).
    SignalState.install()
    guard newterm(nil, statecraft_stdout(), statecraft_stdin()) != nil else {
      SignalState.uninstall()
      printError("error: ncurses can't drive this terminal (TERM is not known).")
      return nil
    }
    SignalState.prepareRestore()
    return FullScreen()
  }

  private init() {
    (keys, continuation) = AsyncStream.makeStream(of: Key.self)
    let window = statecraft_stdscr()
    raw()
    noecho()
    nonl()
    _ = keypad(window, true)
    _ = meta(window, true)
    _ = nodelay(window, true)
    // NB: how long ncurses waits for the rest of a sequence after an escape byte before it is
    // the Escape key; vim's default.
    _ = set_escdelay(100)
    _ = curs_set(0)
    statecraft_start_colors()
    _ = wrefresh(window)
    Self.writeToTerminal(Self.bracketedPasteOn)

    for descriptor in [STDIN_FILENO, SignalState.signalPipe.read] {
      let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: .main)
      source.setEventHandler { [weak self] in
        MainActor.assumeIsolated {
          guard let self else { return }
          if descriptor == STDIN_FILENO { self.readInput() } else { self.readSignals() }
        }
      }
      source.resume()
      sources.append(source)
    }
  }

  /// The screen's size.
  public var size: (rows: Int, columns: Int) {
    (Int(statecraft_lines()), Int(statecraft_columns()))
  }

  /// Shows `rows` from the top of the screen, each cut to the screen's width; rows past the
  /// bottom are not shown. ncurses writes only the cells that changed.
  public func draw(_ rows: [StyledText]) {
    guard !isClosed else { return }
    let window = statecraft_stdscr()
    _ = werase(window)
    let (height, width) = size
    for (row, line) in rows.prefix(height).enumerated() {
      _ = wmove(window, Int32(row), 0)
      for run in line.fitted(to: width).runs {
        statecraft_set_style(window, run.style.rawValue)
        var wide = run.text.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
        wide.append(0)
        _ = waddnwstr(window, wide, Int32(wide.count - 1))
      }
    }
    statecraft_set_style(window, 0)
    _ = wrefresh(window)
  }

  /// Gives the terminal back as it was. Safe to call twice.
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    for source in sources { source.cancel() }
    sources = []
    Self.writeToTerminal(Self.bracketedPasteOff)
    _ = endwin()
    SignalState.uninstall()
    continuation.finish()
    if let quitSignal = SignalState.quitSignal {
      // NB: the demo still finishes its work (saves) after this; the process then ends by the
      // signal it got, as a shell expects, once standard output is flushed.
      SignalState.exitSignal = quitSignal
      atexit {
        fflush(nil)
        signal(SignalState.exitSignal, SIG_DFL)
        SignalState.raiseInThisThread(SignalState.exitSignal)
      }
    }
  }

  // MARK: - Input

  private func readInput() {
    var inputs: [KeyDecoder.Input] = []
    let window = statecraft_stdscr()
    while true {
      let code = wgetch(window)
      if code == ERR { break }
      inputs.append(code < 0x100 ? .byte(UInt8(code)) : .key(Key(cursesKey: code)))
    }
    if inputs.isEmpty {
      // NB: a terminal in raw mode is readable with nothing to read only when it went away.
      var waiting: Int32 = 0
      if ioctl(STDIN_FILENO, UInt(FIONREAD), &waiting) != 0 || waiting == 0 { emptyReads += 1 }
      if emptyReads >= 2 { continuation.finish() }
      return
    }
    emptyReads = 0
    inputs.append(.pause)
    for key in decoder.decode(inputs) { deliver(key) }
  }

  private func deliver(_ key: Key) {
    switch key {
    case .control("l"):
      _ = clearok(statecraft_curscr(), true)
      continuation.yield(.redraw)
    case .control("z"):
      suspend()
    case .resize:
      _ = clearok(statecraft_curscr(), true)
      continuation.yield(.resize)
    default:
      continuation.yield(key)
    }
  }

  private func readSignals() {
    var signals = [UInt8](repeating: 0, count: 16)
    let count = read(SignalState.signalPipe.read, &signals, signals.count)
    guard count > 0 else { return }
    for number in signals.prefix(count).map(Int32.init) {
      switch number {
      case SIGTSTP: suspend()
      case SIGCONT:
        _ = reset_prog_mode()
        _ = clearok(statecraft_curscr(), true)
        continuation.yield(.redraw)
      case SIGWINCH:
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 {
          _ = resizeterm(Int32(size.ws_row), Int32(size.ws_col))
        }
        deliver(.resize)
      default:
        continuation.finish()
      }
    }
  }

  /// Restores the terminal and stops the process as Ctrl-Z does in a shell; on resume takes the
  /// terminal again and asks for a full redraw.
  private func suspend() {
    Self.writeToTerminal(Self.bracketedPasteOff)
    _ = endwin()
    signal(SIGTSTP, SIG_DFL)
    SignalState.raiseInThisThread(SIGTSTP)
    // Resumed.
    SignalState.install(SIGTSTP)
    _ = clearok(statecraft_curscr(), true)
    _ = wrefresh(statecraft_stdscr())
    Self.writeToTerminal(Self.bracketedPasteOn)
    continuation.yield(.redraw)
  }

  // NB: xterm's bracketed paste mode, which terminals that lack it ignore. Written straight to
  // the terminal (after ncurses has flushed its output) since terminfo has no name for it.
  private static let bracketedPasteOn = "\u{1B}[?2004h"
  private static let bracketedPasteOff = "\u{1B}[?2004l"

  private static func writeToTerminal(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
  }

  /// ncurses reads and writes wide characters only under a UTF-8 locale: the person's, else
  /// C.UTF-8.
  private static func useUTF8Locale() {
    setlocale(LC_ALL, "")
    if String(cString: nl_langinfo(nl_item(CODESET))) != "UTF-8" {
      setlocale(LC_CTYPE, "C.UTF-8")
    }
  }
}

extension Key {
  /// The key an ncurses key code stands for.
  init(cursesKey code: Int32) {
    switch code {
    case KEY_UP: self = .up
    case KEY_DOWN: self = .down
    case KEY_LEFT: self = .left
    case KEY_RIGHT: self = .right
    case KEY_HOME: self = .home
    case KEY_END: self = .end
    case KEY_PPAGE: self = .pageUp
    case KEY_NPAGE: self = .pageDown
    case KEY_DC: self = .delete
    case KEY_BACKSPACE: self = .backspace
    case KEY_ENTER: self = .enter
    case KEY_RESIZE: self = .resize
    default: self = .unknown
    }
  }
}

// MARK: - Signals

/// What the signal handlers share with the main actor. The handlers only write a byte to a pipe
/// that the main actor reads, except for a second quitting signal, which restores the terminal
/// from the handler itself (with `tcsetattr` and `write`, both async-signal-safe).
///
/// NB: every variable is written on the main thread before the handlers are installed (or by the
/// handler alone, `quitSignal`, a word-sized store), so the handlers never see one half-written.
private enum SignalState {
  nonisolated(unsafe) static var signalPipe: (read: Int32, write: Int32) = (-1, -1)
  nonisolated(unsafe) static var shellMode = termios()
  nonisolated(unsafe) static var restoreBytes: UnsafeMutableBufferPointer<UInt8> = .init(
    start: nil, count: 0)
  nonisolated(unsafe) static var quitSignal: Int32?
  nonisolated(unsafe) static var exitSignal: Int32 = 0

  static let handled = [SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT, SIGWINCH]

  /// Raises `number` in the calling thread, which may block it: the main actor runs on a
  /// dispatch thread, and those block every asynchronous signal.
  static func raiseInThisThread(_ number: Int32) {
    var signals = sigset_t()
    var previous = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, number)
    pthread_sigmask(SIG_UNBLOCK, &signals, &previous)
    raise(number)
    pthread_sigmask(SIG_SETMASK, &previous, nil)
  }

  static func openPipe() -> Bool {
    guard signalPipe.read < 0 else { return true }
    var descriptors: [Int32] = [-1, -1]
    guard pipe(&descriptors) == 0 else { return false }
    for descriptor in descriptors {
      _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
      _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    }
    signalPipe = (descriptors[0], descriptors[1])
    return true
  }

  static func install(_ signals: Int32...) {
    for number in signals.isEmpty ? handled : signals {
      var action = sigaction()
      #if canImport(Darwin)
        action.__sigaction_u.__sa_handler = handleSignal
      #else
        action.__sigaction_handler.sa_handler = handleSignal
      #endif
      action.sa_flags = SA_RESTART
      sigemptyset(&action.sa_mask)
      sigaction(number, &action, nil)
    }
  }

  static func uninstall() {
    for number in handled { signal(number, SIG_DFL) }
  }

  /// What a second quitting signal writes to put the terminal back: leave the alternate screen,
  /// show the cursor, plain style, cursor keys and paste back to normal.
  static func prepareRestore() {
    let capabilities: [String] = ["rmcup", "cnorm", "sgr0", "rmkx"]
    let sequences = capabilities.map { name in String(cString: statecraft_terminfo_string(name)) }
    let bytes = Array((sequences.joined() + "\u{1B}[?2004l").utf8)
    restoreBytes.deallocate()
    restoreBytes = .allocate(capacity: bytes.count)
    _ = restoreBytes.initialize(from: bytes)
  }
}

private let handleSignal: @convention(c) (Int32) -> Void = { number in
  let savedErrno = errno
  defer { errno = savedErrno }
  if number == SIGINT || number == SIGTERM || number == SIGHUP {
    if SignalState.quitSignal != nil {
      // NB: the demo didn't quit after the first one: restore the terminal here and end.
      _ = tcsetattr(STDIN_FILENO, TCSANOW, &SignalState.shellMode)
      if let base = SignalState.restoreBytes.baseAddress {
        _ = write(STDOUT_FILENO, base, SignalState.restoreBytes.count)
      }
      signal(number, SIG_DFL)
      raise(number)
      return
    }
    SignalState.quitSignal = number
  }
  var byte = UInt8(truncatingIfNeeded: number)
  _ = write(SignalState.signalPipe.write, &byte, 1)
}
