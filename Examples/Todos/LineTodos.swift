import DemoTerminal
import Statecraft
import TodosFeature

/// The todo app driven one command per line, for piped input and CI.
///
/// At the start and after a command that changes the list, a short list (up to
/// ``wholeListLimit`` todos) is printed whole; a longer one prints its first rows at the start
/// and only the rows a command changed after it, so a list of 100,000 todos doesn't print
/// 100,000 lines per command (`list` prints it all).
@MainActor
struct LineTodos: DemoMode {
  let app: TodosApp

  /// The longest list printed whole after each change.
  static let wholeListLimit = 30
  /// The most changed rows printed after one command on a long list.
  static let changedRowsLimit = 20

  func run() async {
    printLine("Statecraft todos. \(TodoCommand.usage)")
    printList(whole: false)
    var lastSync = app.syncLine
    // NB: a notice that comes while no command runs (a save that failed in the background) is
    // printed when it comes; a command prints its own.
    let notices = NoticeState(last: app.store.notice)
    let syncToken = app.store.observe { _ in
      let line = app.syncLine
      if line != lastSync, let line { printLine(line) }
      lastSync = line
      let notice = app.store.notice
      if !notices.runsCommand, notice != notices.last, let notice { printLine(notice) }
      notices.last = notice
    }
    defer { syncToken.cancel() }
    app.log.onEntry = { printLine($0) }

    for await command in StandardInput.commands() {
      if await handleScreenCommand(command.line) { continue }
      switch TodoCommand.parse(command.line, in: app.store.withState { $0 }) {
      case .success(.send(.delete(let id))):
        // NB: a delete is asked first: `yes` deletes, `no` keeps.
        app.navigate(.deleteTapped(id: id))
        if let dialog = app.navigation.confirmation {
          printLine(TodosApp.confirmationLine(dialog))
        }
      case .failure(let hint):
        printLine(hint.message)
      case .success(.quit):
        return
      case .success(.help):
        printLine(TodoCommand.usage)
      case .success(.list):
        printList(whole: true)
      case .success(.wait):
        await app.waitForEffects()
      case .success(.toggleLog):
        app.showsLog.toggle()
        printLine(app.showsLog ? "change log on" : "change log off")
      case .success(.send(let action)):
        notices.runsCommand = true
        defer { notices.runsCommand = false }
        let before = app.list.visible
        let task = app.send(action)
        // NB: the sync runs in the background so that `cancel` can stop it, and so does the
        // save a change of the list starts, so that a burst of commands on a long list saves
        // once, not once per command (`wait` and quitting wait for it). Everything else is
        // awaited, so that what is printed next reflects its effects (the debounced search).
        if !action.runsInBackground { await task.finish() }
        if let notice = app.store.notice { printLine(notice) }
        notices.last = app.store.notice
        if action.changesTheView {
          printList(whole: false)
        } else if action.changesTheList {
          printChanges(from: before)
        }
      }
    }
  }

  /// Handles the commands of the detail screens and of the delete confirmation; false for any
  /// other line.
  private func handleScreenCommand(_ line: String) async -> Bool {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    let word = trimmed.prefix { !$0.isWhitespace }
    let rest = trimmed.dropFirst(word.count).trimmingCharacters(in: .whitespaces)
    if let dialog = app.navigation.confirmation {
      switch word {
      case "yes", "no":
        let role: ButtonState<TodosNavigation.Confirmation>.Role? =
          word == "no" ? .cancel : .destructive
        let button = dialog.buttons.first { $0.role == role } ?? dialog.buttons[0]
        let before = app.list.visible
        // NB: the delete's save runs in the background, as a delete's does (see below).
        app.navigate(.confirmation(.press(button)))
        printLine(word == "yes" ? "deleted" : "kept")
        if word == "yes" { printChanges(from: before) }
      case "quit":
        // NB: quitting is never refused: the question is answered "no", and nothing is deleted.
        let button = dialog.buttons.first { $0.role == .cancel } ?? dialog.buttons[0]
        app.navigate(.confirmation(.press(button)))
        printLine("kept")
        return false
      default:
        printLine("Answer the question first: \(TodosApp.confirmationLine(dialog))")
      }
      return true
    }
    switch word {
    case "open":
      switch TodoCommand.parse("toggle \(rest)", in: app.store.withState { $0 }) {
      case .success(.send(.toggle(let id))):
        app.navigate(.open(id: id))
        printScreen()
      case .failure(let hint):
        printLine(hint.message.replacingOccurrences(of: "'toggle'", with: "'open'"))
      default: break
      }
      return true
    case "back":
      // NB: "Already at the list." is a notice, which the observation above prints.
      app.navigate(.back)
      if app.topScreen != nil { printScreen() } else { printList(whole: false) }
      return true
    case "title", "notes":
      guard let top = app.topScreen else {
        printLine("'\(word)' edits the todo that is open; open one with 'open N'.")
        return true
      }
      let action: TodoDetail.Action = word == "title" ? .setTitle(rest) : .setNotes(rest)
      await app.navigate(.path(.element(id: top.id, action: action))).finish()
      printScreen()
      return true
    default:
      return false
    }
  }

  /// Prints the detail screen on top of the stack.
  private func printScreen() {
    guard let top = app.topScreen else { return }
    for line in TodosApp.detailLines(top.state) { printLine(line) }
    printLine("(title TEXT · notes TEXT · back)")
  }

  /// Prints the list: whole when asked or short, else its first rows.
  private func printList(whole: Bool) {
    let count = app.list.visible.count
    let shown = whole || count <= Self.wholeListLimit ? count : Self.changedRowsLimit
    for line in app.listLines(in: 0..<max(shown, 1)) { printLine(line) }
    if shown < count {
      printLine("  … and \(count - shown) more rows; type list to see them all")
    }
    printLine("(\(app.summary))")
  }

  /// Prints the list after a change of the todos: whole when it is short, else the rows that
  /// differ from `before` (those between the longest common start and end of the two lists).
  private func printChanges(from before: [Todo]) {
    let after = app.list.visible
    guard before.count > Self.wholeListLimit || after.count > Self.wholeListLimit else {
      return printList(whole: true)
    }
    var start = 0
    while start < before.count, start < after.count, before[start] == after[start] { start += 1 }
    var end = 0
    while end < before.count - start, end < after.count - start,
      before[before.count - 1 - end] == after[after.count - 1 - end]
    {
      end += 1
    }
    let removed = before[start..<(before.count - end)]
    let changed = start..<(after.count - end)
    let changedIDs = Set(after[changed].map(\.id))
    var lines: [String] = []
    for (offset, todo) in zip(removed.indices, removed) where !changedIDs.contains(todo.id) {
      lines.append(TodosApp.row(todo, at: offset) + "  (no longer in the list)")
    }
    lines += changed.map { TodosApp.row(after[$0], at: $0) }
    if after.isEmpty { lines = app.listLines() }
    for line in lines.prefix(Self.changedRowsLimit) { printLine(line) }
    if lines.count > Self.changedRowsLimit {
      printLine(
        "  … and \(lines.count - Self.changedRowsLimit) more rows; type list to see them all")
    }
    printLine("(\(app.summary))")
  }
}

/// Which notice line mode printed last, and whether a command is running.
@MainActor
private final class NoticeState {
  var last: String?
  var runsCommand = false

  init(last: String?) { self.last = last }
}

extension Todos.Action {
  /// Whether the list as printed may look different after this action.
  var changesTheList: Bool {
    switch self {
    case .add, .edit, .setNotes, .toggle, .delete, .setFilter, .undo, .redo, .searchChanged,
      .searchApplied:
      return true
    case .syncTapped, .cancelSyncTapped, .syncProgressed, .syncFinished, .saveFailed, .quit:
      return false
    }
  }

  /// Whether line mode goes on to the next command without waiting for the action's effects:
  /// the sync, and the save of a changed list.
  var runsInBackground: Bool {
    switch self {
    case .syncTapped, .add, .edit, .setNotes, .toggle, .delete, .undo, .redo: return true
    default: return false
    }
  }

  /// Whether the action changes which todos are shown, not the todos: a new filter or search.
  var changesTheView: Bool {
    switch self {
    case .setFilter, .searchChanged, .searchApplied: return true
    default: return false
    }
  }
}
