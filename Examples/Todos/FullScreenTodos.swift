import DemoTerminal
import Statecraft
import TodosFeature

/// The todo app full screen: arrow keys move, single keys act, prompts take text.
///
/// Only what changed is redrawn: the screen is rebuilt after each key and each batch of state
/// changes the store reports (sync progress, the debounced search, a failed save), and `Screen`
/// writes only the rows that differ from the last frame.
@MainActor
final class FullScreenTodos: DemoMode {
  let app: TodosApp
  private var screen = Screen()
  private var selection = 0
  private var editor: LineEditor?
  private var editing: Prompt?
  private var hint: String?
  private var token: ObserveToken?

  enum Prompt { case add, edit(id: Int), search }

  init(app: TodosApp) {
    self.app = app
  }

  static let keysHelp =
    "↑↓ move · space toggle · a add · e edit · d delete · f filter · / search · u undo · r redo · "
    + "s sync · c cancel sync · l log · q quit"

  func run() async {
    Terminal.enterFullScreen()
    defer { Terminal.leaveFullScreen() }
    token = app.store.observe { [weak self] _ in self?.draw() }
    defer { token?.cancel() }
    for await key in StandardInput.keys() {
      if handle(key) == .quit { return }
      draw()
    }
  }

  enum Outcome { case keepGoing, quit }

  private func handle(_ key: Key) -> Outcome {
    hint = nil
    if var editor {
      let outcome = editor.handle(key)
      self.editor = editor
      switch (outcome, editing) {
      case (.editing, .search?): app.send(.searchChanged(editor.text))
      case (.submitted(let text), .add?): app.send(.add(text))
      case (.submitted(let text), .edit(let id)?): app.send(.edit(id: id, title: text))
      case (.cancelled, .search?): app.send(.searchChanged(""))
      default: break
      }
      if outcome != .editing {
        self.editor = nil
        editing = nil
      }
      return .keepGoing
    }

    let visible = app.store.visible
    let selected = visible.indices.contains(selection) ? visible[selection] : nil
    switch key {
    case .up, .character("k"): selection = max(0, selection - 1)
    case .down, .character("j"): selection = min(max(visible.count - 1, 0), selection + 1)
    case .character(" "), .enter:
      if let selected { app.send(.toggle(id: selected.id)) } else { hint = "The list is empty." }
    case .character("a"): startPrompt(.add, LineEditor(prompt: "New todo"))
    case .character("e"):
      if let selected {
        startPrompt(.edit(id: selected.id), LineEditor(prompt: "Edit", text: selected.title))
      } else {
        hint = "The list is empty."
      }
    case .character("d"), .character("x"):
      if let selected { app.send(.delete(id: selected.id)) } else { hint = "The list is empty." }
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
    let (rows, columns) = Terminal.size
    var bottom: [String] = []
    if let syncLine = app.syncLine {
      bottom.append(app.store.sync.isSyncing ? Text.yellow(syncLine) + "  (c cancels)" : syncLine)
    }
    if let editor {
      bottom.append(Text.bold("\(editor.prompt): ") + editor.text + Text.inverse(" "))
    } else if let message = hint ?? app.store.notice {
      bottom.append(Text.red(message))
    } else {
      bottom.append("")
    }
    bottom.append(Text.dim(Self.keysHelp))
    if app.showsLog {
      bottom.append(Text.bold("── change log (l hides) ──"))
      bottom.append(contentsOf: app.log.lines.suffix(max(3, rows / 3)))
    }

    let listHeight = max(1, rows - 2 - bottom.count)
    let visibleCount = app.store.visible.count
    selection = min(selection, max(visibleCount - 1, 0))
    let list = app.listLines(selection: visibleCount == 0 ? nil : selection)
    let first = max(0, min(selection - listHeight + 1, list.count - listHeight))
    var lines = [
      Text.bold("Statecraft todos") + "  " + app.summary, String(repeating: "─", count: columns),
    ]
    lines += list.dropFirst(first).prefix(listHeight)
    lines += Array(repeating: "", count: max(0, rows - lines.count - bottom.count))
    lines += bottom
    Terminal.write(screen.update(to: Array(lines.prefix(rows)), width: columns))
  }
}
