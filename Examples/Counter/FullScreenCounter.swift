import CounterFeature
import DemoTerminal
import Statecraft

/// The counter full screen: + and - count, f loads a fact, c cancels it, q quits.
@MainActor
final class FullScreenCounter: DemoMode {
  let app: CounterApp
  private var screen = Screen()
  private var alert: (message: String, times: Int)?
  private var hint: String?

  init(app: CounterApp) {
    self.app = app
  }

  func run() async {
    Terminal.enterFullScreen()
    defer { Terminal.leaveFullScreen() }
    app.onAlert = { [weak self] message in
      guard let self else { return }
      // NB: the pulse fires for each assignment, so a repeated message counts up.
      alert = (message, alert?.message == message ? alert!.times + 1 : 1)
    }
    app.onState = { [weak self] _ in self?.draw() }
    let subscription = app.store.subscribe(app)
    defer { subscription.cancel() }

    for await key in StandardInput.keys() {
      hint = nil
      switch key {
      case .character("+"), .character("="), .up, .right: app.send(.increment)
      case .character("-"), .down, .left: app.send(.decrement)
      case .character("f"): app.send(.factTapped)
      case .character("c"): app.send(.cancelFactTapped)
      case _ where key.quits: return
      default: hint = key.unusedHint
      }
      draw()
    }
  }

  private func draw() {
    let (rows, columns) = Terminal.size
    var lines = [
      Text.bold("Statecraft counter") + "  (Reactor idiom)",
      "",
      "  count: " + Text.bold("\(app.store.count)"),
      "  fact:  " + CounterApp.describe(app.store.fact),
      "",
    ]
    if let alert {
      lines.append(
        Text.inverse(" \(alert.message) ") + (alert.times > 1 ? "  ×\(alert.times)" : ""))
    } else {
      lines.append("")
    }
    lines.append(hint.map(Text.red) ?? "")
    lines.append(Text.dim("+ more · - less · f fact · c cancel the fact · q quit"))
    lines += Array(repeating: "", count: max(0, rows - lines.count))
    Terminal.write(screen.update(to: Array(lines.prefix(rows)), width: columns))
  }
}
