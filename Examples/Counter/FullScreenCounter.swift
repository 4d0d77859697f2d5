import CounterFeature
import DemoTerminal
import Statecraft

/// The counter full screen: + and - count, f loads a fact, c cancels it, q quits.
@MainActor
final class FullScreenCounter: DemoMode {
  let app: CounterApp
  private var screen: FullScreen?
  // NB: not private, so that the tests can draw the screen with an alert and a hint.
  var alert: (message: String, times: Int)?
  var hint: String?

  init(app: CounterApp) {
    self.app = app
  }

  func run() async {
    guard let screen = FullScreen.start() else { return }
    self.screen = screen
    defer { screen.close() }
    app.onAlert = { [weak self] shown in
      guard let self else { return }
      let message = String(state: shown.title)
      // NB: the pulse fires for each assignment, so a repeated message counts up.
      alert = (message, alert?.message == message ? alert!.times + 1 : 1)
    }
    app.onState = { [weak self] _ in self?.draw() }
    let subscription = app.store.subscribe(app)
    defer { subscription.cancel() }

    draw()
    for await key in screen.keys {
      hint = nil
      switch key {
      case .resize, .redraw: break  // drawn again below
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
    guard let screen else { return }
    let (rows, columns) = screen.size
    screen.draw(lines(rows: rows, columns: columns))
  }

  /// The screen's rows at `rows` × `columns` cells, for any state and any size, down to none.
  func lines(rows: Int, columns: Int) -> [StyledText] {
    let rows = max(0, rows)
    let columns = max(0, columns)
    var lines: [StyledText] = [
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
    let footer = KeyHints.lines(
      ["+ more", "- less", "f fact", "c cancel the fact"], quit: "q quit", width: columns,
      maxLines: max(1, rows - lines.count))
    // NB: on a screen too small for all of it, the rows above the keys give way, and then the
    // keys' first rows, so that no more rows are drawn than the screen has.
    lines = Array(lines.prefix(max(0, rows - footer.count)))
    lines += footer.map(Text.dim)
    return Array(lines.suffix(rows))
  }
}
