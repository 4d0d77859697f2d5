import DemoTerminal
import Foundation
import IdentifiedCollections
import IssueReporting
import Statecraft
import TodosFeature

/// Runs the todo feature in the terminal: full screen or line by line.
@MainActor
final class TodosApp {
  /// The app's screens: the list, detail screens on a stack, the delete confirmation.
  let navigation: StoreOf<TodosNavigation>
  /// The list's store, scoped from ``navigation``.
  let store: StoreOf<Todos>
  /// The tasks of the actions sent, so that quitting waits for the effects they started.
  private let tasks = TaskTracker()
  /// The change log: each action and the change it made, while the log is shown.
  let log: ChangeLogBuffer
  /// Where the list is saved since another program changed the todo file under a change of
  /// it: said again on quit, once the list's error is cleared by the saves to that copy.
  private(set) var savedBeside: TodoFileError?

  var showsLog: Bool {
    get { log.isEnabled }
    set { log.isEnabled = newValue }
  }

  init(navigation: StoreOf<TodosNavigation>, log: ChangeLogBuffer) {
    self.navigation = navigation
    self.store = navigation.scope(state: \.list, action: TodosNavigation.Action.list)
    self.log = log
  }

  /// How long the shared list waits after a change before writing the file: a burst of keys
  /// (a key held down, piped commands) is one write. A list of 100,000 todos takes about 0.3 s
  /// of CPU to write, so writing after every key would keep a core busy.
  static let saveDelay = Duration.milliseconds(200)
  /// How often the shared list checks its file for an edit made outside the app (another
  /// todos app, an editor).
  static let watchInterval = Duration.milliseconds(250)

  /// Loads the file, runs the app until quit or end of input, and returns the exit code.
  ///
  /// - Parameters:
  ///   - fileURL: the todo file.
  ///   - recordURL: where to write a recording of the session on quit, if anywhere.
  static func main(fileURL: URL, recordTo recordURL: URL?, inspect: Bool = false) async -> Int32 {
    if let recordURL {
      do throws(RecordingFile.Failure) {
        try RecordingFile.checkWritable(recordURL)
      } catch {
        printError("error: \(error)")
        return 1
      }
    }
    // NB: a file that can't be saved is said on screen and on quit, in the app's words: the
    // library's report of it (a runtime warning) would only repeat it.
    IssueReporters.current = []
    let storage = SharedStorage(
      files: .live, defaults: .standard, clock: ContinuousClock(), fileWriteDelay: saveDelay,
      filePollInterval: watchInterval)
    let list = withSharedStorage(storage) {
      Shared(
        wrappedValue: TodoList(),
        .fileStorage(fileURL, maximumSize: TodoList.maximumFileSize))
    }
    if let error = list.error {
      printError("error: \(TodoFileError(error))")
      return 1
    }
    let log = ChangeLogBuffer()
    let recorder = recordURL.map { _ in RecorderOf<Todos>(initialState: Todos.State(list: list)) }
    let initial = TodosNavigation.State(list: recorder?.initialState ?? Todos.State(list: list))
    let navigation = Store(initialState: initial) {
      TodosNavigation {
        let todos = Todos()
          // NB: while the log is hidden, an action costs the log one call to this filter.
          .logChanges(to: ChangeLogSink { log.append($0) }) { action in
            guard log.isEnabled else { return false }
            if case .syncProgressed = action { return false }
            return true
          }
        if let recorder { todos.recording(into: recorder) } else { todos }
      }
    }
    let app = TodosApp(navigation: navigation, log: log)
    // NB: a write that fails in the background (the file became read-only, another app changed
    // it) is said as a notice when it happens, and so is a file that another program made
    // unusable. Only the shared list's error is read, so this runs again when that changes, not
    // at each change of the list.
    let saveProblems = navigation.observe { navigation in
      if let error = list.error.map(TodoFileError.init) {
        if case .savedBeside = error.error { app.savedBeside = error }
        navigation.send(.list(.saveFailed(error.whileRunning)))
      }
    }
    let inspector = inspect ? await app.startInspector() : nil
    await Terminal.run(fullScreen: { FullScreenTodos(app: app) }, lines: { LineTodos(app: app) })
    await app.quit()
    // NB: steps that the inspector's "continue from here" set aside, and no undo put back, are
    // written beside the todo file, as a conflict is, and said after leaving full screen.
    var setAsideMessages: [String] = []
    for setAside in inspector?.setAsideSessions() ?? [] {
      let url = Self.freeURL(beside: fileURL, label: "set-aside")
      do {
        try RecordingFile.write(setAside, to: url)
        setAsideMessages.append(
          """
          The inspector had steps set aside by "continue from here": the session with them was \
          written to \(url.path). `todos --replay \(url.path)` replays it.
          """)
      } catch {
        setAsideMessages.append("error: the inspector's set-aside steps were lost: \(error)")
      }
    }
    await inspector?.stop()
    for message in setAsideMessages { printError(message) }
    saveProblems.cancel()
    storage.flushPendingWrites()
    var status: Int32 = 0
    if let recorder, let recordURL {
      do {
        try RecordingFile.write(recorder.recording.jsonData(), to: recordURL)
        printLine("Recorded \(recorder.stepCount) steps to \(recordURL.path).")
      } catch let error as RecordingFile.Failure {
        printError("error: \(error)")
        status = 1
      } catch {
        printError(
          "error: the session could not be encoded as JSON, so \(recordURL.path) was not written.")
        status = 1
      }
    }
    // NB: said after leaving full screen, so that it stays on the terminal. The pending
    // changes were written above: a change made after another program wrote the file is in the
    // copy beside it (`savedBeside`), never dropped; an error left from before that means no
    // change was waiting.
    if let problem = list.error.map(TodoFileError.init) ?? app.savedBeside {
      switch problem.error {
      case .savedBeside: printError("error: \(problem)")
      case .unreadable, .corrupt, .tooLarge: printError("error: \(problem.onQuit)")
      default: printError("error: \(problem)\nQuitting: the last changes were not saved.")
      }
      status = 1
    }
    return status
  }

  /// Replays a recorded session against today's feature; 0 when it reproduced.
  static func replay(_ url: URL) async -> Int32 {
    if let kind = RecordingFile.notARegularFile(at: url) {
      printError(
        "error: The recording \(url.path) can't be read: \(kind). Check the path, and that it "
          + "is a recording written by --record.")
      return 1
    }
    let recording: RecordingOf<Todos>
    do {
      recording = try RecordingOf<Todos>(contentsOf: url)
    } catch {
      // NB: an unreadable file's message names it already.
      if case .unreadable = error {
        printError("error: \(error)")
      } else {
        printError("error: can't replay \(url.path): \(error)")
      }
      return 1
    }
    // NB: a replay runs no effects, so the feature's dependencies are never called.
    let result = recording.replay(against: Todos())
    printLine(result.description)
    return result.isReproduced ? 0 : 1
  }

  /// Sends an action, keeping its task until it has finished.
  @discardableResult
  func send(_ action: Todos.Action) -> StoreTask {
    tasks.track(store.send(action))
  }

  /// Sends a navigation action (open, back, a detail screen's edit, the delete confirmation).
  @discardableResult
  func navigate(_ action: TodosNavigation.Action) -> StoreTask {
    tasks.track(navigation.send(action))
  }

  /// The detail screen on top of the stack, with its id, if any.
  var topScreen: (id: StackElementID, state: TodoDetail.State)? {
    guard let id = navigation.path.ids.last, let state = navigation.path[id: id] else {
      return nil
    }
    return (id, state)
  }

  /// The detail screen's lines: the todo's title and notes.
  static func detailLines(_ detail: TodoDetail.State) -> [String] {
    [
      "── \(Text.escaped(detail.title)) ──",
      "title: \(Text.escaped(detail.title))",
      "notes: \(detail.notes.isEmpty ? "(none)" : Text.escaped(detail.notes))",
    ]
  }

  /// The confirmation's line: its title and each button with the word that presses it.
  static func confirmationLine(_ dialog: ConfirmationDialogState<TodosNavigation.Confirmation>)
    -> String
  {
    let buttons = dialog.buttons.map { "\($0.label): \($0.role == .cancel ? "no" : "yes")" }
    return "\(dialog.title) [\(buttons.joined(separator: " · "))]"
  }

  /// Waits until every effect started so far has finished.
  func waitForEffects() async {
    await tasks.waitForAll()
  }

  /// Stops the sync and the search, then waits for the effects in flight.
  func quit() async {
    send(.quit)
    await waitForEffects()
  }

  // MARK: - What both modes show

  /// The todos the list shows, with how many are left: computed once per change of the list,
  /// the filter or the search, not once per key or per row (a list may hold 100,000 todos).
  struct ListView {
    var todos: IdentifiedArrayOf<Todo>
    var filter: TodoFilter
    var appliedQuery: String
    var visible: [Todo]
    var remaining: Int
  }
  private var listCache: ListView?

  var list: ListView {
    let todos = store.todos
    let filter = store.filter
    let appliedQuery = store.appliedQuery
    if let listCache, listCache.filter == filter, listCache.appliedQuery == appliedQuery,
      listCache.todos == todos
    {
      return listCache
    }
    // NB: read without observing: the three fields above are what `visible` depends on, and
    // observing `visible` itself would make the store compute it again after every batch.
    let (visible, remaining) = store.withState { ($0.visible, $0.remaining) }
    let view = ListView(
      todos: todos, filter: filter, appliedQuery: appliedQuery, visible: visible,
      remaining: remaining)
    listCache = view
    return view
  }

  /// The visible todos as rows, numbered from 1; the rows of `range` only when given, and only
  /// as much of each title as fills `width` cells when given (full screen).
  func listLines(in range: Range<Int>? = nil, width: Int? = nil) -> [String] {
    let list = list
    guard !list.visible.isEmpty else {
      return [list.todos.isEmpty ? "  (no todos yet)" : "  (no todo matches)"]
    }
    let range = (range ?? list.visible.indices).clamped(to: list.visible.indices)
    return range.map { Self.row(list.visible[$0], at: $0, width: width) }
  }

  /// How the todo at `index` of the visible list reads, its title escaped: all of it, or as
  /// much as fills `width` cells.
  static func row(_ todo: Todo, at index: Int, width: Int? = nil) -> String {
    let title = width.map { Text.start(of: todo.title, width: $0) } ?? todo.title
    return
      "\(String(index + 1).leftPadded(to: 3)). [\(todo.isDone ? "x" : " ")] \(Text.escaped(title))"
  }

  var summary: String {
    let list = list
    var parts = ["\(list.remaining) left of \(list.todos.count)", "filter: \(list.filter)"]
    if !list.appliedQuery.isEmpty { parts.append("search: \(list.appliedQuery)") }
    return parts.joined(separator: " · ")
  }

  var syncLine: String? { store.sync.line }
}

extension TodosApp {
  /// A file beside `file` that doesn't exist yet: `todos.LABEL-1.json`, `todos.LABEL-2.json`…
  static func freeURL(beside file: URL, label: String) -> URL {
    let folder = file.deletingLastPathComponent()
    let stem = file.deletingPathExtension().lastPathComponent
    let suffix = file.pathExtension.isEmpty ? "" : ".\(file.pathExtension)"
    var number = 1
    while true {
      let candidate = folder.appendingPathComponent("\(stem).\(label)-\(number)\(suffix)")
      if !FileManager.default.fileExists(atPath: candidate.path) { return candidate }
      number += 1
    }
  }
}

extension String {
  func leftPadded(to width: Int) -> String {
    String(repeating: " ", count: max(0, width - count)) + self
  }
}

/// The change log's entries, kept for the log pane (full screen) or printed (line mode).
@MainActor
final class ChangeLogBuffer {
  /// Whether actions are logged: only while the log is shown.
  var isEnabled = false
  private(set) var lines: [String] = []
  /// Called with each entry's text as it is logged.
  var onEntry: (String) -> Void = { _ in }

  /// How many lines the pane can scroll back through.
  static let capacity = 500

  func append(_ entry: ChangeLogEntry) {
    let text = entry.description
    lines += text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.count > Self.capacity { lines.removeFirst(lines.count - Self.capacity) }
    onEntry(text)
  }
}
