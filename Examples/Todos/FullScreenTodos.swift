import DemoTerminal
import Statecraft
import TodosFeature

/// The todo app full screen: arrow keys move, single keys act, prompts take text.
///
/// The screen is rebuilt after each key and each batch of state changes the store reports (sync
/// progress, the debounced search, a failed save); only the rows on screen are formatted, and
/// ncurses writes only the cells that changed.
@MainActor
final class FullScreenTodos: DemoMode {
  let app: TodosApp
  private var screen: FullScreen?
  // NB: not private, so that the tests can draw the screen in any of its modes.
  var selection = 0
  var editor: LineEditor?
  var editing: Prompt?
  var hint: String?
  private var token: ObserveToken?

  enum Prompt { case add, edit(id: Int), search, title(StackElementID), notes(StackElementID) }

  init(app: TodosApp) {
    self.app = app
  }

  static let keyHints = [
    "↑↓ move", "space toggle", "a add", "e edit", "d delete", "f filter", "/ search", "u undo",
    "r redo", "s sync", "c cancel sync", "o open", "l log",
  ]

  static let screenKeyHints = ["t edit title", "n edit notes", "esc/b back"]

  func run() async {
    guard let screen = FullScreen.start() else { return }
    self.screen = screen
    defer { screen.close() }
    // NB: observes the navigation store, so that a pushed screen or a question redraws too.
    token = app.navigation.observe { [weak self] _ in self?.draw() }
    defer { token?.cancel() }
    for await key in screen.keys {
      if handle(key) == .quit { return }
      draw()
    }
  }

  enum Outcome { case keepGoing, quit }

  private func handle(_ key: Key) -> Outcome {
    // NB: a resize or a redraw only draws again, whatever is being typed.
    if key == .resize || key == .redraw { return .keepGoing }
    hint = nil
    if var editor {
      let outcome = editor.handle(key)
      self.editor = editor
      switch (outcome, editing) {
      case (.editing, .search?): app.send(.searchChanged(editor.text))
      case (.submitted(let text), .add?): app.send(.add(text))
      case (.submitted(let text), .edit(let id)?): app.send(.edit(id: id, title: text))
      case (.cancelled, .search?): app.send(.searchChanged(""))
      case (.submitted(let text), .title(let screen)?):
        app.navigate(.path(.element(id: screen, action: .setTitle(text))))
      case (.submitted(let text), .notes(let screen)?):
        app.navigate(.path(.element(id: screen, action: .setNotes(text))))
      default: break
      }
      if outcome != .editing {
        self.editor = nil
        editing = nil
      }
      return .keepGoing
    }

    if let dialog = app.navigation.confirmation {
      switch key {
      case .character("y"):
        let button = dialog.buttons.first { $0.role == .destructive } ?? dialog.buttons[0]
        app.navigate(.confirmation(.press(button)))
      case .character("n"), .escape:
        let button = dialog.buttons.first { $0.role == .cancel } ?? dialog.buttons[0]
        app.navigate(.confirmation(.press(button)))
      default: hint = "Press y to delete, n to keep."
      }
      return .keepGoing
    }
    if let top = app.topScreen {
      switch key {
      case .escape, .character("b"), .left: app.navigate(.back)
      case .character("t"):
        startPrompt(.title(top.id), LineEditor(prompt: "Title", text: top.state.title))
      case .character("n"):
        startPrompt(.notes(top.id), LineEditor(prompt: "Notes", text: top.state.notes))
      case _ where key.quits: return .quit
      default: hint = "t edits the title, n the notes; esc goes back."
      }
      return .keepGoing
    }

    let visible = app.list.visible
    let selected = visible.indices.contains(selection) ? visible[selection] : nil
    let page = max(1, (screen?.size.rows ?? 24) - 6)
    let last = max(visible.count - 1, 0)
    switch key {
    case .up, .character("k"): selection = max(0, selection - 1)
    case .down, .character("j"): selection = min(last, selection + 1)
    case .pageUp: selection = max(0, selection - page)
    case .pageDown: selection = min(last, selection + page)
    case .home: selection = 0
    case .end: selection = last
    case .character(" "), .enter:
      if let selected { app.send(.toggle(id: selected.id)) } else { hint = "The list is empty." }
    case .character("a"): startPrompt(.add, LineEditor(prompt: "New todo"))
    case .character("e"):
      if let selected {
        startPrompt(.edit(id: selected.id), LineEditor(prompt: "Edit", text: selected.title))
      } else {
        hint = "The list is empty."
      }
    case .character("d"), .character("x"), .delete:
      if let selected {
        app.navigate(.deleteTapped(id: selected.id))
      } else {
        hint = "The list is empty."
      }
    case .character("o"), .right:
      if let selected { app.navigate(.open(id: selected.id)) } else { hint = "The list is empty." }
    case .character("f"): app.send(.setFilter(app.store.filter.next))
    case .character("/"): startPrompt(.search, LineEditor(prompt: "Search", text: app.store.query))
    case .character("u"): app.send(.undo)
    case .character("r"): app.send(.redo)
    case .character("s"): app.send(.syncTapped)
    case .character("c"): app.send(.cancelSyncTapped)
    case .character("l"): app.showsLog.toggle()
    case _ where key.quits: return .quit
    default: hint = key.unusedHint
    }
    return .keepGoing
  }

  private func startPrompt(_ prompt: Prompt, _ editor: LineEditor) {
    editing = prompt
    self.editor = editor
  }

  private func draw() {
    guard let screen else { return }
    let (rows, columns) = screen.size
    screen.draw(lines(rows: rows, columns: columns))
  }

  /// The screen's rows at `rows` × `columns` cells, for any state of the app and any size,
  /// down to none.
  func lines(rows: Int, columns: Int) -> [StyledText] {
    let rows = max(0, rows)
    let columns = max(0, columns)
    let list = app.list
    // NB: read whatever is shown, so that the store's observation redraws when it changes: a
    // notice that comes later (a save that failed in the background) must show at once.
    let notice = app.store.notice
    selection = min(selection, max(list.visible.count - 1, 0))

    // The list keeps at least three rows and the footer at least its quit key; the sync line,
    // the message line, the other key hints and the log pane take what is left.
    let header: [StyledText] = [
      Text.bold("Statecraft todos") + "  " + app.summary,
      StyledText(String(repeating: "─", count: columns)),
    ]
    var bottom: [StyledText] = []
    if let syncLine = app.syncLine {
      bottom.append(
        app.store.sync.isSyncing ? Text.yellow(syncLine) + "  (c cancels)" : StyledText(syncLine))
    }
    if let dialog = app.navigation.confirmation {
      bottom.append(Text.yellow(TodosApp.confirmationLine(dialog)) + "  (y/n)")
    } else if let editor {
      bottom.append(editor.row(width: columns))
    } else if let message = hint ?? notice {
      // NB: a notice names a file and what to do, so it wraps (up to three rows) rather than
      // being cut; the list keeps at least three rows.
      let space = min(3, max(1, rows - header.count - bottom.count - 3 - 1))
      bottom += Text.wrap(message, width: columns, maxLines: space).map(Text.red)
    } else {
      bottom.append("")
    }
    let footerSpace = max(1, rows - header.count - bottom.count - 3)
    let top = app.topScreen
    let footer = KeyHints.lines(
      top == nil ? Self.keyHints : Self.screenKeyHints, quit: "q quit", width: columns,
      maxLines: footerSpace)
    bottom += footer.map(Text.dim)
    if app.showsLog {
      let logSpace = rows - header.count - bottom.count - 3 - 1
      if logSpace > 0 {
        bottom.append(Text.bold("── change log (l hides) ──"))
        bottom += app.log.lines.suffix(min(logSpace, max(3, rows / 3))).map { StyledText($0) }
      }
    }

    let listHeight = max(1, rows - header.count - bottom.count)
    let first = max(0, min(selection - listHeight + 1, list.visible.count - listHeight))
    var lines = header
    if let top {
      // The detail screen over the list.
      lines += TodosApp.detailLines(top.state).map {
        StyledText(Text.start(of: $0, width: columns))
      }
      lines += Array(repeating: "", count: max(0, rows - lines.count - bottom.count))
      lines += bottom
      return Array(lines.suffix(rows))
    }
    let rowsShown = app.listLines(in: first..<(first + listHeight), width: columns)
    for (offset, row) in rowsShown.enumerated() {
      let isSelected = !list.visible.isEmpty && first + offset == selection
      lines.append(isSelected ? Text.inverse(row) : StyledText(row))
    }
    lines += Array(repeating: "", count: max(0, rows - lines.count - bottom.count))
    lines += bottom
    // NB: on a screen too small for all of it, the bottom rows (the quit key) win.
    return Array(lines.suffix(rows))
  }
}
