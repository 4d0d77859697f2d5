import CNcursesw
import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The signals a demo takes, full screen and line by line alike: one handler, one pipe, one way
/// to quit.
///
/// - **Quit signals** (SIGINT, SIGTERM, SIGHUP): the first one is passed on, and the demo quits
///   as on `q`, finishing its work (the todo app's last save). The process then ends by that
///   signal, as a shell expects. Repeated quit signals are absorbed: a storm of `kill` can't cut
///   a save short. What bounds quitting is a deadline instead: ``quitDeadline`` seconds after
///   the first quit signal, a process still running gives the terminal back, says so on
///   standard error, and ends by that signal.
/// - **Full-screen signals** (SIGTSTP, SIGCONT, SIGWINCH) are passed on while a full-screen
///   session listens, and have their default effect otherwise.
///
/// The handler does only what is safe in a signal handler: it records the first quit signal,
/// sets an `alarm` for the deadline, and writes the signal's number to a pipe, which a dispatch
/// source reads and hands to the listener.
enum Signals {
  /// How long quitting may take after a quit signal, in seconds: a save of 100,000 todos takes
  /// about 0.3 s, and a save blocked for good (another process holding the folder's lock, a
  /// hung network disk) must not keep the process from ending.
  static let quitDeadline: UInt32 = 5

  static let quitting: [Int32] = [SIGINT, SIGTERM, SIGHUP]
  static let fullScreen: [Int32] = [SIGTSTP, SIGCONT, SIGWINCH]

  @MainActor private static var source: (any DispatchSourceRead)?
  @MainActor private static var listened: [Int32] = []

  /// Whether a quit signal came, whoever listened then.
  static var hasQuitSignal: Bool { SignalState.quitSignal != 0 }

  /// Passes `signals` (the quit signals always) to `deliver`, on `queue`, until
  /// ``stopListening()``. False, with nothing installed, when the pipe can't be made.
  ///
  /// Install before ncurses starts: it leaves a signal that has a handler to its caller.
  @MainActor
  static func listen(
    to signals: [Int32], on queue: DispatchQueue,
    _ deliver: @escaping @Sendable (Int32) -> Void
  ) -> Bool {
    guard SignalState.prepare() else { return false }
    stopListening()
    listened = signals
    for number in quitting + signals { install(number) }
    let source = DispatchSource.makeReadSource(
      fileDescriptor: SignalState.signalPipe.read, queue: queue)
    source.setEventHandler(handler: readPipe(deliver))
    source.resume()
    self.source = source
    return true
  }

  /// What reads the pipe, on the listener's queue.
  ///
  /// NB: nonisolated, so that the handler does not take the main actor's isolation from
  /// ``listen(to:on:_:)`` and check for it on a queue that is not the main one.
  private nonisolated static func readPipe(
    _ deliver: @escaping @Sendable (Int32) -> Void
  ) -> @Sendable () -> Void {
    {
      var numbers = [UInt8](repeating: 0, count: 64)
      let count = read(SignalState.signalPipe.read, &numbers, numbers.count)
      guard count > 0 else { return }
      for number in numbers.prefix(count) { deliver(Int32(number)) }
    }
  }

  /// Stops passing signals on. The full-screen signals get their default effect back; the quit
  /// signals stay handled until the process ends, so that one that comes while the demo saves
  /// is absorbed, and ends the process once the save is done.
  @MainActor
  static func stopListening() {
    source?.cancel()
    source = nil
    for number in listened where !quitting.contains(number) { signal(number, SIG_DFL) }
    listened = []
  }

  /// Whether `number` is a quit signal.
  static func quits(_ number: Int32) -> Bool {
    number == SIGINT || number == SIGTERM || number == SIGHUP
  }

  /// Stops the process as Ctrl-Z does in a shell, and handles SIGTSTP again once it resumes.
  @MainActor
  static func suspend() {
    signal(SIGTSTP, SIG_DFL)
    raiseInThisThread(SIGTSTP)
    install(SIGTSTP)
  }

  /// What a deadline that passes while full screen writes to give the terminal back: the
  /// terminal's settings as the shell had them, and the bytes that leave the alternate screen
  /// and show the cursor. Nil when the terminal is not taken over.
  @MainActor
  static func restoreTerminal(to mode: termios?, writing bytes: [UInt8]) {
    SignalState.restoresTerminal = 0
    guard let mode else { return }
    SignalState.shellMode = mode
    SignalState.restoreBytes.deallocate()
    SignalState.restoreBytes = .allocate(capacity: bytes.count)
    _ = SignalState.restoreBytes.initialize(from: bytes)
    SignalState.restoresTerminal = 1
  }

  private static func install(_ number: Int32) {
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
}

// MARK: - What the handlers share

/// What the signal handlers read and write.
///
/// NB: every variable but `quitSignal` is written on the main thread before the handlers that
/// read it are installed (`restoresTerminal` is set last, after what it guards), and
/// `quitSignal` is a word written by a handler alone, so the handlers never see one
/// half-written.
private enum SignalState {
  nonisolated(unsafe) static var signalPipe: (read: Int32, write: Int32) = (-1, -1)
  /// The first quit signal, or 0.
  nonisolated(unsafe) static var quitSignal: Int32 = 0
  nonisolated(unsafe) static var restoresTerminal: Int32 = 0
  nonisolated(unsafe) static var shellMode = termios()
  nonisolated(unsafe) static var restoreBytes = UnsafeMutableBufferPointer<UInt8>(
    start: nil, count: 0)
  /// What the deadline says on standard error.
  nonisolated(unsafe) static var deadlineMessage = UnsafeMutableBufferPointer<UInt8>(
    start: nil, count: 0)

  /// Makes the pipe, the deadline's message and handler, and the exit hook, once.
  static func prepare() -> Bool {
    guard signalPipe.read < 0 else { return true }
    var descriptors: [Int32] = [-1, -1]
    guard pipe(&descriptors) == 0 else { return false }
    for descriptor in descriptors {
      _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
      _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    }
    let message = Array(
      """
      error: quitting did not finish within \(Signals.quitDeadline) seconds of the signal, so \
      it stopped there; what was not saved by then is lost.

      """.utf8)
    deadlineMessage = .allocate(capacity: message.count)
    _ = deadlineMessage.initialize(from: message)
    var action = sigaction()
    #if canImport(Darwin)
      action.__sigaction_u.__sa_handler = handleDeadline
    #else
      action.__sigaction_handler.sa_handler = handleDeadline
    #endif
    sigemptyset(&action.sa_mask)
    sigaction(SIGALRM, &action, nil)
    // NB: the process ends by the quit signal it got once the demo has quit and saved, as a
    // shell expects (status 128 + the signal's number). Standard output only is flushed:
    // `fflush(nil)` would wait for the lock of standard input, which a reading thread may hold.
    atexit {
      let number = SignalState.quitSignal
      guard number != 0 else { return }
      fflush(statecraft_stdout())
      signal(number, SIG_DFL)
      Signals.raiseInThisThread(number)
    }
    signalPipe = (descriptors[0], descriptors[1])
    return true
  }
}

private let handleSignal: @convention(c) (Int32) -> Void = { number in
  let savedErrno = errno
  defer { errno = savedErrno }
  if Signals.quits(number) {
    // NB: only the first quit signal counts: the ones after it are absorbed, so that a storm of
    // them can't cut the demo's last save short. The deadline bounds quitting instead.
    guard SignalState.quitSignal == 0 else { return }
    SignalState.quitSignal = number
    alarm(Signals.quitDeadline)
  }
  var byte = UInt8(truncatingIfNeeded: number)
  _ = write(SignalState.signalPipe.write, &byte, 1)
}

/// The deadline passed: gives the terminal back, says so, and ends the process by the quit
/// signal it got. Only calls that are safe in a signal handler.
private let handleDeadline: @convention(c) (Int32) -> Void = { _ in
  let number = SignalState.quitSignal == 0 ? SIGTERM : SignalState.quitSignal
  if SignalState.restoresTerminal != 0 {
    _ = tcsetattr(STDIN_FILENO, TCSANOW, &SignalState.shellMode)
    if let base = SignalState.restoreBytes.baseAddress {
      _ = write(STDOUT_FILENO, base, SignalState.restoreBytes.count)
    }
  }
  if let base = SignalState.deadlineMessage.baseAddress {
    _ = write(STDERR_FILENO, base, SignalState.deadlineMessage.count)
  }
  signal(number, SIG_DFL)
  var signals = sigset_t()
  sigemptyset(&signals)
  sigaddset(&signals, number)
  pthread_sigmask(SIG_UNBLOCK, &signals, nil)
  raise(number)
  _exit(128 + number)
}
