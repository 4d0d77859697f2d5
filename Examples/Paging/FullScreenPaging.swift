import DemoTerminal
import PagingFeature
import Statecraft

/// The paged list full screen: scrolling past the last item loads the next page.
@MainActor
final class FullScreenPaging: DemoMode {
  let app: PagingApp
  private var screen: FullScreen?
  // NB: not private, so that the tests can draw the screen in any of its modes.
  var selection = 0
  var editor: LineEditor?
  var hint: String?

  init(app: PagingApp) {
    self.app = app
  }

  func run() async {
    guard let screen = FullScreen.start() else { return }
    self.screen = screen
    defer { screen.close() }
    app.onState = { [weak self] _ in self?.draw() }
    let subscription = app.store.subscribe(app)
    defer { subscription.cancel() }

    draw()
    for await key in screen.keys {
      // NB: a resize or a redraw only draws again, whatever is being typed.
      if key == .resize || key == .redraw {
        draw()
        continue
      }
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
    guard let screen else { return }
    let (rows, columns) = screen.size
    screen.draw(lines(rows: rows, columns: columns))
  }

  /// The screen's rows at `rows` × `columns` cells, for any state and any size, down to none.
  func lines(rows: Int, columns: Int) -> [StyledText] {
    let rows = max(0, rows)
    let columns = max(0, columns)
    let items = app.store.items
    selection = min(selection, max(items.count - 1, 0))
    let footer = KeyHints.lines(
      ["↑↓ scroll (↓ at the end loads more)", "/ search", "r retry"], quit: "q quit",
      width: columns, maxLines: max(1, rows - 7))
    let listHeight = max(1, rows - 4 - footer.count)
    let first = max(0, min(selection - listHeight + 1, items.count - listHeight))
    var lines: [StyledText] = [
      Text.bold("Statecraft paging") + "  (Feedback idiom)  "
        + (app.store.query.isEmpty ? "all items" : "search: \(app.store.query)"),
      StyledText(String(repeating: "─", count: columns)),
    ]
    for (offset, item) in items.enumerated().dropFirst(first).prefix(listHeight) {
      lines.append(offset == selection ? Text.inverse(" \(item) ") : StyledText(" \(item)"))
    }
    lines += Array(repeating: "", count: max(0, rows - 2 - footer.count - lines.count))
    let status = app.statusLine
    lines.append(app.store.failure != nil ? Text.red(status) : Text.yellow(status))
    if let editor {
      lines.append(editor.row(width: columns))
    } else {
      lines.append(hint.map(Text.red) ?? "")
    }
    lines += footer.map(Text.dim)
    // NB: on a screen too small for all of it, the bottom rows (the quit key) win.
    return Array(lines.suffix(rows))
  }
}
