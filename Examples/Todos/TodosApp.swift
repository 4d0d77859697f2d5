import DemoTerminal
import Foundation
import IdentifiedCollections
import Statecraft
import TodosFeature

/// Runs the todo feature in the terminal: full screen or line by line.
@MainActor
final class TodosApp {
  let store: StoreOf<Todos>
  let file: TodoFile
  /// The tasks of the actions sent, so that quitting waits for the saves they started.
  private let tasks = TaskTracker()
  var showsLog = false
  var log: [String] = []

  init(store: StoreOf<Todos>, file: TodoFile) {
    self.store = store
    self.file = file
  }

  /// Loads the file, runs the app until quit or end of input, and returns the exit code.
  static func main(file: TodoFile) async -> Int32 {
    let todos: IdentifiedArrayOf<Todo>
    do {
      todos = try file.load()
    } catch {
      FileHandle.standardError.write(Data("error: \(error)\n".utf8))
      return 1
    }
    let saver = TodoSaver(file: file)
    let store = Store(initialState: Todos.State(todos: todos)) {
      Todos(clock: ContinuousClock(), save: { try await saver.save($0) })
    }
    let app = TodosApp(store: store, file: file)
    if Terminal.isInteractive {
      await FullScreenTodos(app: app).run()
    } else {
      await LineTodos(app: app).run()
    }
    await app.quit()
    return 0
  }

  /// Sends an action, keeping its task until it has finished.
  @discardableResult
  func send(_ action: Todos.Action) -> StoreTask {
    tasks.track(store.send(action))
  }

  /// Waits until every effect started so far has finished.
  func waitForEffects() async {
    await tasks.waitForAll()
  }

  /// Stops the sync and the search, then waits for the saves in flight.
  func quit() async {
    send(.quit)
    await waitForEffects()
  }

  // MARK: - What both modes show

  func listLines(selection: Int? = nil) -> [String] {
    let visible = store.visible
    guard !visible.isEmpty else {
      return [store.todos.isEmpty ? "  (no todos yet)" : "  (no todo matches)"]
    }
    return visible.enumerated().map { index, todo in
      let line =
        "\(String(index + 1).leftPadded(to: 3)). [\(todo.isDone ? "x" : " ")] \(todo.title)"
      return index == selection ? Text.inverse(line) : line
    }
  }

  var summary: String {
    var parts = ["\(store.remaining) left of \(store.todos.count)", "filter: \(store.filter)"]
    if !store.appliedQuery.isEmpty { parts.append("search: \(store.appliedQuery)") }
    return parts.joined(separator: " · ")
  }

  var syncLine: String? {
    switch store.sync {
    case .idle: return nil
    case .syncing(let percent):
      let filled = percent / 10
      return
        "sync \(String(repeating: "#", count: filled))\(String(repeating: ".", count: 10 - filled)) \(percent)%"
    case .synced(let count): return "synced \(count) todo\(count == 1 ? "" : "s")"
    case .cancelled: return "sync cancelled"
    }
  }
}

extension String {
  func leftPadded(to width: Int) -> String {
    String(repeating: " ", count: max(0, width - count)) + self
  }
}
