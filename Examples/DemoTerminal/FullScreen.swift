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
///   terminal is restored, and the process then ends by that signal. More of them are absorbed;
///   if quitting takes longer than a deadline, the terminal is restored and the process ends
///   (see `Signals`, which line mode shares).
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
  private var input: (any DispatchSourceRead)?
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
    var shellMode = termios()
    guard tcgetattr(STDIN_FILENO, &shellMode) == 0 else {
      printError("error: standard input is not a terminal; pipe commands in instead.")
      return nil
    }
    // NB: listened to before ncurses starts, so that it leaves these signals to us (it installs
    // its own handlers only where a signal has the default one). A signal that comes before
    // the screen exists is kept for it.
    let relay = SignalRelay()
    let listening = Signals.listen(to: Signals.fullScreen, on: .main) { number in
      MainActor.assumeIsolated { relay.deliver(number) }
    }
    guard listening else {
      printError("error: could not set up signal handling (\(String(cString: strerror(errno)))).")
      return nil
    }
    guard newterm(nil, statecraft_stdout(), statecraft_stdin()) != nil else {
      Signals.stopListening()
      printError("error: ncurses can't drive this terminal (TERM is not known).")
      return nil
    }
    Signals.restoreTerminal(to: shellMode, writing: restoreBytes())
    let screen = FullScreen()
    relay.connect(to: screen)
    return screen
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

    let input = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
    input.setEventHandler { [weak self] in
      MainActor.assumeIsolated { self?.readInput() }
    }
    input.resume()
    self.input = input
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
    input?.cancel()
    input = nil
    Self.writeToTerminal(Self.bracketedPasteOff)
    _ = endwin()
    Signals.restoreTerminal(to: nil, writing: [])
    // NB: a quit signal that comes after this, while the demo saves, is still absorbed, and the
    // process still ends by the first one once the demo has quit.
    Signals.stopListening()
    continuation.finish()
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

  fileprivate func handleSignal(_ number: Int32) {
    guard !isClosed else { return }
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

  /// Restores the terminal and stops the process as Ctrl-Z does in a shell; on resume takes the
  /// terminal again and asks for a full redraw.
  private func suspend() {
    Self.writeToTerminal(Self.bracketedPasteOff)
    _ = endwin()
    Signals.suspend()
    // Resumed.
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

/// Hands the signals that come while the screen starts to the screen once it exists.
@MainActor
private final class SignalRelay {
  private weak var screen: FullScreen?
  private var early: [Int32] = []

  func deliver(_ number: Int32) {
    if let screen { screen.handleSignal(number) } else { early.append(number) }
  }

  func connect(to screen: FullScreen) {
    self.screen = screen
    for number in early { screen.handleSignal(number) }
    early = []
  }
}

extension FullScreen {
  /// What gives the terminal back when the process must end at once (see `Signals`): leave
  /// the alternate screen, show the cursor, plain style, cursor keys and paste back to normal.
  fileprivate static func restoreBytes() -> [UInt8] {
    let capabilities: [String] = ["rmcup", "cnorm", "sgr0", "rmkx"]
    let sequences = capabilities.map { name in String(cString: statecraft_terminfo_string(name)) }
    return Array((sequences.joined() + bracketedPasteOff).utf8)
  }
}
