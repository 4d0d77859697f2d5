import DemoTerminal
import Statecraft
import TodosFeature

/// The todo app driven one command per line, for piped input and CI.
@MainActor
struct LineTodos: DemoMode {
  let app: TodosApp

  func run() async {
    print("Statecraft todos. \(TodoCommand.usage)")
    printList()
    var lastSync = app.syncLine
    let syncToken = app.store.observe { _ in
      let line = app.syncLine
      if line != lastSync, let line { print(line) }
      lastSync = line
    }
    defer { syncToken.cancel() }
    app.log.onEntry = { print($0) }

    for await command in StandardInput.commands() {
      switch TodoCommand.parse(command.line, in: app.store.state) {
      case .failure(let hint):
        print(hint.message)
      case .success(.quit):
        return
      case .success(.help):
        print(TodoCommand.usage)
      case .success(.list):
        printList()
      case .success(.wait):
        await app.waitForEffects()
      case .success(.toggleLog):
        app.showsLog.toggle()
        print(app.showsLog ? "change log on" : "change log off")
      case .success(.send(let action)):
        let task = app.send(action)
        // NB: the sync runs in the background so that `cancel` can stop it; everything else is
        // awaited, so that what is printed next reflects its effects (the debounced search).
        if action != .syncTapped { await task.finish() }
        if let notice = app.store.notice { print(notice) }
        if action.changesTheList { printList() }
      }
    }
  }

  private func printList() {
    for line in app.listLines() { print(line) }
    print("(\(app.summary))")
  }
}

extension Todos.Action {
  /// Whether the list as printed may look different after this action.
  var changesTheList: Bool {
    switch self {
    case .add, .edit, .toggle, .delete, .setFilter, .undo, .redo, .searchChanged, .searchApplied:
      return true
    case .syncTapped, .cancelSyncTapped, .syncProgressed, .syncFinished, .saveFailed, .quit:
      return false
    }
  }
}
