// Owns the throttle windows of a store tree: which ids have a window open, the effect each window
// holds back, and what to do when an effect arrives or a window ends. It is pure: its mutating
// methods change the windows and return what the caller (EffectInterpreter.swift, which starts
// effects and tasks) must do next; it starts nothing itself.

/// The throttle windows of a store tree, by cancellation key.
///
/// A window opens when the first effect throttled under a key starts, and lasts for the throttle's
/// interval (the caller runs the window as a task, whose token it reports with
/// ``windowOpened(_:token:)``). While it is open, effects throttled under the key are held back:
/// the latest one (`latest: true`) or the first one (`latest: false`). When the interval elapses,
/// the held-back effect starts and opens the next window; with nothing held back the window
/// closes. Cancelling the key closes the window and drops what it holds.
struct ThrottleStateMachine<HeldBack> {
  struct Window {
    /// The token of the task that runs the window (see `EffectRegistry`).
    let token: UInt64
    var heldBack: HeldBack?
  }

  private(set) var windows: [CancellationKey: Window] = [:]

  init() {}

  // MARK: - An effect arrives

  enum Arrival {
    /// No window is open: start the effect now, then open a window (``windowOpened(_:token:)``).
    case startAndOpenWindow
    /// A window is open: the effect is held back in the window run by `token`; the tasks that
    /// await the effect now await that window.
    case heldBack(window: UInt64)
    /// A window is open and already holds the first effect (`latest: false`): drop this one.
    case drop
  }

  /// An effect throttled under `key` arrived.
  mutating func effectArrived(_ effect: HeldBack, key: CancellationKey, latest: Bool) -> Arrival {
    guard var window = windows[key] else { return .startAndOpenWindow }
    guard latest || window.heldBack == nil else { return .drop }
    window.heldBack = effect
    windows[key] = window
    return .heldBack(window: window.token)
  }

  /// The window under `key` started running as the task `token`.
  mutating func windowOpened(_ key: CancellationKey, token: UInt64) {
    windows[key] = Window(token: token, heldBack: nil)
  }

  // MARK: - A window ends

  enum Elapsed {
    /// Start the held-back effect, then open the next window.
    case startHeldBack(HeldBack)
    /// Nothing was held back (or the window was already closed): the window is over.
    case close
  }

  /// The interval of the window under `key` elapsed.
  mutating func windowElapsed(_ key: CancellationKey) -> Elapsed {
    guard let window = windows.removeValue(forKey: key), let heldBack = window.heldBack else {
      return .close
    }
    return .startHeldBack(heldBack)
  }

  /// The task `token` ended (by elapsing, or cancelled): the window it ran, if still open, closes.
  mutating func taskEnded(_ token: UInt64, key: CancellationKey) {
    if windows[key]?.token == token { windows[key] = nil }
  }

  /// `cancel(id:)` under `key`: the window closes and drops what it holds back.
  mutating func cancel(_ key: CancellationKey) {
    windows[key] = nil
  }

  /// A child instance left the state: its windows close.
  mutating func cancel(namespacePrefix prefix: Namespace) {
    guard !windows.isEmpty else { return }
    for key in windows.keys where key.namespace.hasPrefix(prefix) { windows[key] = nil }
  }

  /// Every window closes (the store is cancelling everything).
  mutating func cancelAll() {
    windows.removeAll()
  }

  // MARK: - What a test sees

  /// Whether `token` runs a window that holds nothing back: bookkeeping, not work, for a test.
  func isIdleWindow(_ token: UInt64) -> Bool {
    windows.values.contains { $0.token == token && $0.heldBack == nil }
  }

  /// The tokens of the windows that hold nothing back.
  var idleWindows: [UInt64] {
    windows.values.compactMap { $0.heldBack == nil ? $0.token : nil }
  }
}
