import DemoTerminal
import PagingFeature
import Statecraft

/// The paged list full screen: scrolling past the last item loads the next page.
@MainActor
final class FullScreenPaging: DemoMode {
  let app: PagingApp
  private var screen = Screen()
  private var selection = 0
  private var editor: LineEditor?
  private var hint: String?

  init(app: PagingApp) {
    self.app = app
  }

  func run() async {
    Terminal.enterFullScreen()
    defer { Terminal.leaveFullScreen() }
    app.onState = { [weak self] _ in self?.draw() }
    let subscription = app.store.subscribe(app)
    defer { subscription.cancel() }

    for await key in StandardInput.keys() {
      hint = nil
      if var editor {
        let outcome = editor.handle(key)
        self.editor = outcome == .editing ? editor : nil
        switch outcome {
        case .editing, .submitted: app.store.send(.queryChanged(editor.text))
        case .cancelled: break
        }
        selection = 0
        draw()
        continue
      }
      switch key {
      case .up, .character("k"): selection = max(0, selection - 1)
      case .down, .character("j"):
        if selection + 1 < app.store.items.count {
          selection += 1
        } else {
          app.store.send(.loadMore)
        }
      case .character("/"): editor = LineEditor(prompt: "Search", text: app.store.query)
      case .character("r"): app.store.send(.retry)
      case _ where key.quits: return
      default: hint = key.unusedHint
      }
      draw()
    }
  }

  private func draw() {
    let (rows, columns) = Terminal.size
    let items = app.store.items
    selection = min(selection, max(items.count - 1, 0))
    let listHeight = max(1, rows - 5)
    let first = max(0, min(selection - listHeight + 1, items.count - listHeight))
    var lines = [
      Text.bold("Statecraft paging") + "  (Feedback idiom)  "
        + (app.store.query.isEmpty ? "all items" : "search: \(app.store.query)"),
      String(repeating: "─", count: columns),
    ]
    for (offset, item) in items.enumerated().dropFirst(first).prefix(listHeight) {
      lines.append(offset == selection ? Text.inverse(" \(item) ") : " \(item)")
    }
    lines += Array(repeating: "", count: max(0, rows - 3 - lines.count))
    let status = app.statusLine
    lines.append(app.store.failure != nil ? Text.red(status) : Text.yellow(status))
    if let editor {
      lines.append(Text.bold("\(editor.prompt): ") + editor.text + Text.inverse(" "))
    } else {
      lines.append(hint.map(Text.red) ?? "")
    }
    lines.append(Text.dim("↑↓ scroll (↓ at the end loads more) · / search · r retry · q quit"))
    Terminal.write(screen.update(to: Array(lines.prefix(rows)), width: columns))
  }
}
